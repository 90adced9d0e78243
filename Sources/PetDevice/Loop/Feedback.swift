import PetCore

/// What the buzzer and the LED do for a batch of stored events (docs/sound-and-light.md): pure.
///
/// - celebration (tone and light): a task, focus session or challenge completed with a reward, a
///   level-up, a badge, a commitment kept;
/// - nudge (tone and light): a reminder shown;
/// - strong buzz: a stake or a challenge forfeited, a focus session failed;
/// - tick: a setting changed;
/// - soft buzz: the owner's button action was declined (`declined`).
///
/// One tone per batch, the most important (strong buzz, celebration, nudge, soft buzz, tick). No
/// tone at all when the owner turned the sound off; what time alone caused (not the owner's own
/// action) makes no sound in quiet hours or while reminders are silenced — the light still shows.
public enum Feedback {
    public struct Output: Sendable, Equatable {
        public var tone: Tone?
        public var light: LightPattern?
        public init(tone: Tone? = nil, light: LightPattern? = nil) { self.tone = tone; self.light = light }
    }

    static let order: [Tone] = [.strongBuzz, .celebration, .nudge, .softBuzz, .tick]

    /// `byOwner`: the events answer the owner's own action (a button or the phone), not time.
    /// `soundOn`: the owner's sound setting. `timeSoundAllowed`: not in quiet hours and reminders
    /// not silenced (at the last event's instant).
    public static func output(for events: [Event], soundOn: Bool, timeSoundAllowed: Bool, byOwner: Bool,
                              declined: Bool = false) -> Output {
        var tones: Set<Tone> = declined ? [.softBuzz] : []
        var light: LightPattern?
        func celebrate() { tones.insert(.celebration); light = .celebration }
        for e in events {
            switch e.kind {
            case .taskCompleted(_, _, let r) where r.coins > 0: celebrate()
            case .levelReached, .badgeEarned: celebrate()
            case .commitment(.focusCompleted), .commitment(.verified): celebrate()
            case .appTime(.completed): celebrate()
            case .commitment(.forfeited), .commitment(.focusFailed), .appTime(.forfeited): tones.insert(.strongBuzz)
            case .reminderDue, .reminder(.shown):
                tones.insert(.nudge)
                if light == nil { light = .nudge }
            case .deviceSettingsChanged, .dayStartChanged, .quietHoursChanged, .paused, .resumed: tones.insert(.tick)
            default: break
            }
        }
        var tone = order.first { tones.contains($0) }
        if !soundOn { tone = nil }
        if !byOwner && !timeSoundAllowed { tone = nil }
        return Output(tone: tone, light: light)
    }
}
