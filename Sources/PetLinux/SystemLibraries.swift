import CBluetooth

/// The system C library the Linux backends link against besides libc and SQLite: BlueZ's
/// libbluetooth. (GPIO uses the kernel's uAPI v2 directly, no library: GPIOUAPI.swift.)
public enum SystemLibraries {
    /// Formats a Bluetooth device address with BlueZ's `ba2str` ("AA:BB:CC:DD:EE:FF").
    public static func bluetoothAddressString(_ bytes: [UInt8]) -> String? {
        guard bytes.count == 6 else { return nil }
        var addr = bdaddr_t()
        withUnsafeMutableBytes(of: &addr.b) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        var out = [CChar](repeating: 0, count: 18)
        guard ba2str(&addr, &out) == 17 else { return nil }
        return String(decoding: out.prefix(17).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
