#if canImport(Glibc)
import Glibc
#endif
import PetDevice

/// The battery's charge as the kernel's power-supply class reports it
/// (/sys/class/power_supply/NAME/type "Battery", NAME/capacity in percent).
public enum PowerSupply {
    /// The first battery's capacity (0...100), nil when the kernel lists none (no fuel-gauge driver).
    public static func batteryPercent(root: String = "/sys/class/power_supply") -> UInt8? {
        guard let dir = opendir(root) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        for name in names.sorted() {
            guard let type = readFile("\(root)/\(name)/type", limit: 64), String(decoding: type, as: UTF8.self).hasPrefix("Battery"),
                  let cap = readFile("\(root)/\(name)/capacity", limit: 16),
                  let v = Int(String(decoding: cap.prefix { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)) else { continue }
            return UInt8(max(0, min(100, v)))
        }
        return nil
    }
}
