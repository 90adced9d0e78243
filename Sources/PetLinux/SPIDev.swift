#if canImport(Glibc)
import Glibc
#endif
import PetDevice

/// An SPI bus through spidev (`/dev/spidevB.C`): opened once, mode, word size and clock set once,
/// then one SPI_IOC_MESSAGE per transfer, never more than spidev's `bufsiz` bytes.
public final class SPIDevBus: SPIBus {
    public let path: String
    public let speedHz: UInt32
    public let maxTransferSize: Int
    private var fd: Int32

    /// - Parameters:
    ///   - mode: SPI mode 0...3 (many ST7789 modules without a CS pin need 3).
    ///   - bufsizPath: spidev's transfer limit (4096 unless `spidev.bufsiz=` was set).
    public init(path: String = "/dev/spidev0.0", mode: UInt8 = 0, speedHz: UInt32 = 40_000_000,
                bufsizPath: String = "/sys/module/spidev/parameters/bufsiz") throws(HardwareError) {
        self.path = path
        self.speedHz = speedHz
        maxTransferSize = Sys.readInt(bufsizPath).map { max(1, $0) } ?? 4096
        fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            throw HardwareError(device: path, operation: "open", errno: e, advice: Self.openAdvice(e))
        }
        var m = mode, bits: UInt8 = 8, speed = speedHz
        try setting("set SPI mode \(mode)") { ioctl($0, IOCTL.spiWriteMode, &m) }
        try setting("set 8 bits per word") { ioctl($0, IOCTL.spiWriteBitsPerWord, &bits) }
        try setting("set the clock to \(speedHz) Hz") { ioctl($0, IOCTL.spiWriteMaxSpeedHz, &speed) }
    }

    /// One SPI_IOC_WR_* call; on failure the device is closed and the error says what failed.
    private func setting(_ name: String, _ call: (Int32) -> Int32) throws(HardwareError) {
        guard call(fd) < 0 else { return }
        let e = errno
        Glibc.close(fd); fd = -1
        throw HardwareError(device: path, operation: name, errno: e, advice: e == ENOTTY ? "not an SPI device" : nil)
    }

    /// Why opening failed and what to do about the usual causes.
    static func openHint(_ e: Int32) -> String {
        HardwareError(device: "", operation: "", errno: e, advice: openAdvice(e)).reason
    }

    static func openAdvice(_ e: Int32) -> String? {
        switch e {
        case ENOENT: "enable SPI (dtparam=spi=on in config.txt, then reboot)"
        case EACCES, EPERM: "add the user to the spi group (usermod -aG spi USER, then log in again)"
        case EBUSY: "another program or a kernel driver (fbtft?) holds the device"
        default: nil
        }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(HardwareError) {
        guard fd >= 0 else { throw HardwareError(.closed, device: path, operation: "write \(bytes.count) bytes", reason: "closed") }
        guard bytes.count > 0 else { return }
        guard bytes.count <= maxTransferSize else {
            throw HardwareError(.invalidArgument, device: path, operation: "write \(bytes.count) bytes",
                                reason: "more than spidev's bufsiz (\(maxTransferSize)): send in chunks")
        }
        var t = SPIIocTransfer()
        t.txBuf = UInt64(UInt(bitPattern: bytes.baseAddress))
        t.len = UInt32(bytes.count)
        t.speedHz = speedHz
        t.bitsPerWord = 8
        let r = withUnsafeMutablePointer(to: &t) { ioctl(fd, IOCTL.spiMessage(1), UnsafeMutableRawPointer($0)) }
        if r < 0 {
            throw HardwareError(device: path, operation: "write \(bytes.count) bytes", errno: errno)
        }
    }

    public func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    deinit { close() }
}

/// An I2C bus through i2c-dev (`/dev/i2c-N`): I2C_SLAVE once per address, then one write() per
/// message.
public final class I2CDevBus: I2CBus {
    public let path: String
    public let maxMessageSize = 8192
    private var fd: Int32
    private var selected: UInt8?

    public init(path: String = "/dev/i2c-1") throws(HardwareError) {
        self.path = path
        fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            let advice: String?
            switch e {
            case ENOENT: advice = "enable I2C (dtparam=i2c_arm=on in config.txt, then reboot; modprobe i2c-dev)"
            case EACCES, EPERM: advice = "add the user to the i2c group (usermod -aG i2c USER, then log in again)"
            default: advice = nil
            }
            throw HardwareError(device: path, operation: "open", errno: e, advice: advice)
        }
    }

    public func write(address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(HardwareError) {
        let what = "write \(bytes.count) bytes to 0x\(String(address, radix: 16))"
        guard fd >= 0 else { throw HardwareError(.closed, device: path, operation: what, reason: "closed") }
        if selected != address {
            guard ioctl(fd, IOCTL.i2cSlave, CInt(address)) == 0 else {
                let e = errno
                throw HardwareError(device: path, operation: "select address 0x\(String(address, radix: 16))", errno: e,
                                    advice: e == EBUSY ? "a kernel driver owns that address" : nil)
            }
            selected = address
        }
        let n = Glibc.write(fd, bytes.baseAddress, bytes.count)
        guard n == bytes.count else {
            let e = errno
            if n >= 0 { throw HardwareError(.system, device: path, operation: what, reason: "only \(n) bytes went out") }
            if e == ENXIO || e == EREMOTEIO || e == EIO {
                throw HardwareError(.notFound, device: path, operation: what,
                                    reason: "\(errnoText(e)) (\(errnoName(e))): no device answered at 0x\(String(address, radix: 16)) (check the wiring and the address: i2cdetect -y BUS)",
                                    errno: e)
            }
            throw HardwareError(device: path, operation: what, errno: e,
                                advice: e == EOPNOTSUPP ? "this adapter only does SMBus transfers, not plain I2C messages" : nil)
        }
    }

    public func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    deinit { close() }
}
