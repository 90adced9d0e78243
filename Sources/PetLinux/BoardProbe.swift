#if canImport(Glibc)
import Glibc
#endif
import PetDevice

/// `deskpet check`: probes every device a board names without driving any of them — device nodes
/// exist and are readable and writable by this user, GPIO chips are found by label and their lines
/// by name or offset (and are not held by someone else), the PWM channel exists. Each line of the
/// report says what is wrong and what to do.
public enum BoardProbe {
    public struct Report: Sendable {
        public var lines: [String] = []
        public var ok = true
        mutating func pass(_ s: String) { lines.append("  ok    " + s) }
        mutating func fail(_ s: String) { lines.append("  FAIL  " + s); ok = false }
    }

    public static func check(_ board: Board) -> Report {
        var r = Report()
        let board = BoardHardware.resolve(board)
        if board.isSimulator {
            r.pass("a simulator board: nothing to probe (it runs headless: deskpet run --board \(board.name), or deskpet-sim --board \(board.name))")
            return r
        }
        let d = board.display
        switch d.bus {
        case .spi(let dev, _, _): node(dev, "display (SPI)", hint: "enable SPI: dtparam=spi=on in /boot/firmware/config.txt, reboot; user in the spi group", &r)
        case .i2c(let dev, _): node(dev, "display (I2C)", hint: "enable I2C: dtparam=i2c_arm=on in /boot/firmware/config.txt, reboot; user in the i2c group", &r)
        case .framebuffer(let dev): node(dev, "display (framebuffer)", hint: "a framebuffer driver must be loaded (e.g. a dtoverlay for the panel); user in the video group", &r)
        case .sim: break
        }
        for (what, line) in [("dc", d.dc), ("rst", d.reset), ("bl", d.backlight), ("busy", d.busy), ("cs", d.chipSelect), ("pwr", d.power)] {
            if let line { gpio(line, "display \(what)", &r) }
        }
        switch board.buttons.bus {
        case .gpio(let lines, _, _):
            for (button, line) in lines.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { gpio(line, "button \(button.rawValue)", &r) }
        case .evdev(let dev, _):
            if dev.hasPrefix("/") { node(dev, "buttons (evdev)", hint: "enable the gpio-key overlay; user in the input group", &r) }
            else { r.pass("buttons: input device named '\(dev)' (looked up at start)") }
        case .sim: break
        }
        switch board.buzzer {
        case .line(let l, let kind)?: gpio(l, "buzzer (\(kind.rawValue))", &r)
        case .pwm(let chip, let channel)?:
            let path = "/sys/class/pwm/\(chip)"
            if access(path, F_OK) == 0 { r.pass("buzzer: \(path) (channel \(channel))") }
            else { r.fail("buzzer: \(path) is missing: enable PWM (dtoverlay=pwm) in /boot/firmware/config.txt and reboot") }
        case nil: break
        }
        switch board.led {
        case .single(let l, _)?: gpio(l, "led", &r)
        case .rgb(let red, let green, let blue, _)?:
            gpio(red, "led red", &r); gpio(green, "led green", &r); gpio(blue, "led blue", &r)
        case nil: break
        }
        return r
    }

    static func node(_ path: String, _ what: String, hint: String, _ r: inout Report) {
        if access(path, F_OK) != 0 { r.fail("\(what): \(path) does not exist: \(hint)"); return }
        if access(path, R_OK | W_OK) != 0 { r.fail("\(what): \(path) is not readable and writable by this user: \(hint)"); return }
        r.pass("\(what): \(path)")
    }

    static func gpio(_ line: GPIOLine, _ what: String, _ r: inout Report) {
        let chip: GPIOChip
        do throws(HardwareError) { chip = try GPIOChip.open(label: line.chip) } catch {
            if error.kind == .permissionDenied {
                r.fail("\(what): gpiochip '\(line.chip)' is not accessible: add the user to the gpio group and log in again")
            } else {
                let labels = line.chips.map { "'\($0)'" }.joined(separator: " or ")
                r.fail("\(what): no gpiochip labelled \(labels) (gpiodetect lists the labels: pinctrl-bcm2835 on a Pi Zero 2 W or 3, pinctrl-bcm2711 on a Pi 4, pinctrl-rp1 on a Pi 5)")
            }
            return
        }
        let info: GPIOLineInfo
        do throws(HardwareError) {
            switch line.line {
            case .name(let n):
                guard let o = try chip.offset(named: n) else { r.fail("\(what): \(line) not found on the chip (gpioinfo \(line.chip) lists its lines)"); return }
                info = try chip.lineInfo(o)
            case .offset(let o):
                guard o >= 0 && o < Int(chip.info.lines) else { r.fail("\(what): \(line) not found on the chip (gpioinfo \(line.chip) lists its lines)"); return }
                info = try chip.lineInfo(UInt32(o))
            }
        } catch {
            r.fail("\(what): \(error)")
            return
        }
        if info.flags.contains(.used) {
            let consumer = info.consumer.isEmpty ? "a kernel driver" : info.consumer
            r.fail("\(what): \(line) is in use by \(consumer): stop it, or free the pin in config.txt")
            return
        }
        r.pass("\(what): \(line)")
    }
}
