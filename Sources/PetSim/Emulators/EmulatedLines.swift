import PetDevice
import PetUI

// The small parts the panel emulators share (besides PetDevice's `VirtualDelay`): GPIO lines that
// remember their levels, a command log, and turning pictures between glass and UI orientation.

/// An output line wired to an emulator: its level (nil until first driven) and every change.
public final class EmulatedLine: OutputLine {
    public let name: String
    public private(set) var level: Bool?
    /// Levels set, in order (repeats included).
    public private(set) var history: [Bool] = []
    /// Fail every `set` with this error (a line the kernel took away).
    public var failure: HardwareError?
    var onChange: ((_ old: Bool?, _ new: Bool) -> Void)?

    public init(_ name: String) { self.name = name }

    public func set(_ high: Bool) throws(HardwareError) {
        if let failure { throw failure }
        history.append(high)
        if history.count > 4096 { history.removeFirst(2048) }
        let old = level
        level = high
        onChange?(old, high)
    }
}

/// An input line whose level a closure gives (an emulator's BUSY).
public final class EmulatedInput: InputLine {
    let level: () -> Bool
    public private(set) var reads = 0
    public init(_ level: @escaping () -> Bool) { self.level = level }
    public func read() throws(HardwareError) -> Bool { reads += 1; return level() }
}

/// One command a controller received: its byte, its parameters (at most 32 kept) and how many
/// RAM data bytes followed it.
public struct CommandLogEntry: Equatable, Sendable, CustomStringConvertible {
    public var command: UInt8
    public var params: [UInt8]
    public var dataBytes: Int
    public init(_ command: UInt8, _ params: [UInt8] = [], dataBytes: Int = 0) {
        self.command = command; self.params = params; self.dataBytes = dataBytes
    }
    public var description: String {
        let p = params.map { hex($0) }.joined(separator: " ")
        return hex(command) + (p.isEmpty ? "" : " " + p) + (dataBytes > 0 ? " +\(dataBytes) data" : "")
    }
}

func hex(_ b: UInt8) -> String {
    let d = Array("0123456789abcdef")
    return String([d[Int(b >> 4)], d[Int(b & 15)]])
}

enum Turn {
    /// `c` turned `degrees` clockwise (0, 90, 180, 270).
    static func clockwise(_ c: Canvas, _ degrees: Int) -> Canvas {
        let turns = ((degrees / 90) % 4 + 4) % 4
        guard turns > 0 else { return c }
        let w = c.width, h = c.height
        let ow = turns == 2 ? w : h, oh = turns == 2 ? h : w
        var out = Canvas(width: ow, height: oh)
        for y in 0..<oh {
            for x in 0..<ow {
                let src: (Int, Int)
                switch turns {
                case 1: src = (y, h - 1 - x)
                case 2: src = (w - 1 - x, h - 1 - y)
                default: src = (w - 1 - y, x)
                }
                out.pixels[y * ow + x] = c.pixels[src.1 * w + src.0]
            }
        }
        return out
    }

    /// `m` turned `degrees` clockwise.
    static func clockwise(_ m: MonoCanvas, _ degrees: Int) -> MonoCanvas {
        var out = m
        for _ in 0..<(((degrees / 90) % 4 + 4) % 4) { out = out.rotatedClockwise() }
        return out
    }
}
