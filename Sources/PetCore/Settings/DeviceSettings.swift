/// Device preferences set on the settings screen or from the phone (SPEC §14): theme, sound,
/// brightness, and when the screen dims and sleeps. Kept in the journal like everything else.
public struct DeviceSettings: Codable, Sendable, Equatable {
    public enum ThemeName: String, Codable, Sendable, CaseIterable { case light, dark }

    public var theme: ThemeName = .light
    /// Buzzer sounds on/off (reminders also respect quiet hours and `notice.silence`).
    public var sound = true
    /// Backlight brightness in percent, 10–100.
    public var brightness = 80
    /// Seconds of no input before the screen dims (default 2 min) and sleeps (default 5 min).
    public var dimAfter = 120
    public var sleepAfter = 300

    public init() {}

    public static let brightnessRange = 10...100
    public static let dimRange = 10...3600
    public static let sleepRange = 30...7200

    /// Checks every field, naming the one that is wrong.
    public func validate() throws(DomainError) {
        guard DeviceSettings.brightnessRange.contains(brightness) else {
            throw .invalidField(field: "brightness", reason: "must be 10–100 percent (got \(brightness))")
        }
        guard DeviceSettings.dimRange.contains(dimAfter) else {
            throw .invalidField(field: "dim", reason: "must be 10–3600 seconds (got \(dimAfter))")
        }
        guard DeviceSettings.sleepRange.contains(sleepAfter) else {
            throw .invalidField(field: "sleep", reason: "must be 30–7200 seconds (got \(sleepAfter))")
        }
        guard sleepAfter > dimAfter else {
            throw .invalidField(field: "sleep", reason: "must be later than dimming (\(dimAfter) s)")
        }
    }
}
