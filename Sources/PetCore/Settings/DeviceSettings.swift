/// Device preferences set on the settings screen or from the phone (docs/screens.md): theme, sound,
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
    /// The owner has learned "hold B = done" (completed or checked something with a long press on
    /// the device, or dismissed the first-run tip): the home screen stops showing the tip. Stored
    /// with the other settings (in the journal), so it survives a restart; written only once true,
    /// so older journals and the phone's settings messages read as before.
    public var holdTipDone = false
    /// The first run (meet the pet, name it, the clock, the buttons, pairing) was finished or
    /// skipped: it never shows again. Journaled like `holdTipDone` (written only once true), so a
    /// replay knows, and older journals read as before.
    public var welcomeDone = false

    public init() {}

    enum CodingKeys: String, CodingKey { case theme, sound, brightness, dimAfter, sleepAfter, holdTipDone, welcomeDone }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        theme = try c.decode(ThemeName.self, forKey: .theme)
        sound = try c.decode(Bool.self, forKey: .sound)
        brightness = try c.decode(Int.self, forKey: .brightness)
        dimAfter = try c.decode(Int.self, forKey: .dimAfter)
        sleepAfter = try c.decode(Int.self, forKey: .sleepAfter)
        holdTipDone = try c.decodeIfPresent(Bool.self, forKey: .holdTipDone) ?? false
        welcomeDone = try c.decodeIfPresent(Bool.self, forKey: .welcomeDone) ?? false
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(theme, forKey: .theme)
        try c.encode(sound, forKey: .sound)
        try c.encode(brightness, forKey: .brightness)
        try c.encode(dimAfter, forKey: .dimAfter)
        try c.encode(sleepAfter, forKey: .sleepAfter)
        if holdTipDone { try c.encode(true, forKey: .holdTipDone) }
        if welcomeDone { try c.encode(true, forKey: .welcomeDone) }
    }

    public static let brightnessRange = 10...100
    public static let dimRange = 10...3600
    public static let sleepRange = 30...7200

    /// Checks every field, naming the one that is wrong.
    public func validate() throws(DomainError) {
        guard DeviceSettings.brightnessRange.contains(brightness) else {
            throw .invalidField(field: "brightness", reason: "must be \(DeviceSettings.brightnessRange.text) percent (got \(brightness))")
        }
        guard DeviceSettings.dimRange.contains(dimAfter) else {
            throw .invalidField(field: "dim", reason: "must be \(DeviceSettings.dimRange.text) seconds (got \(dimAfter))")
        }
        guard DeviceSettings.sleepRange.contains(sleepAfter) else {
            throw .invalidField(field: "sleep", reason: "must be \(DeviceSettings.sleepRange.text) seconds (got \(sleepAfter))")
        }
        guard sleepAfter > dimAfter else {
            throw .invalidField(field: "sleep", reason: "must be later than dimming (\(dimAfter) s)")
        }
    }
}
