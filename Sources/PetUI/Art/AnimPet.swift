import PetCore

// AnimPet.swift — what the pet is doing at an instant and which picture that is. Pure: a
// function of the state and the injected clock (milliseconds), so every frame of a replay or a
// golden test is the same.

/// What the pet is doing (each has an animation in art/animations.txt).
public enum PetActivity: String, CaseIterable, Sendable, Hashable {
    /// Breathing, blinking every few seconds; the face shows the mood.
    case idle
    /// The happy dance after a completion.
    case dance
    /// Eating after a feeding.
    case eating
    /// Asleep in quiet hours or while paused.
    case sleeping
    /// A reminder was just shown.
    case nudging
    /// A new level.
    case levelUp = "levelup"
    /// Just petted: ears laid back, eyes closed, hearts.
    case petted
    /// A focus session is running: the pet reads along.
    case focus
    /// Idle while the mood is sad: a sweat drop, a fidget (never while celebrating).
    case worried
}

/// One picture of the pet: the layers to draw and where.
public struct PetPose: Sendable, Hashable {
    public var activity: PetActivity
    /// Index of the animation step shown.
    public var step: Int
    /// Frame names in body.txt and faces.txt.
    public var body: String
    public var face: String
    /// Vertical offset of the whole pet (art pixels, negative = up).
    public var dy: Int
    public var effects: [ArtEffect]
}

public enum PetAnimator {
    /// How long the pet dances after a completion (`state.lastCelebration`).
    public static let danceMs: Int64 = 20_000
    /// How long it eats after a feeding (`state.shop.lastFed`).
    public static let eatingMs: Int64 = 5_000
    /// How long it points out a reminder after it was shown (`state.reminders.last`).
    public static let nudgeMs: Int64 = 30_000
    /// How long it enjoys a petting (`state.lastPetting`).
    public static let pettedMs: Int64 = 4_000

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// The activity at `nowMs` and the instant (ms) its animation started. Priority: asleep
    /// (quiet hours, paused) → sleeping; a level-up being celebrated (`levelUp`: the UI shows
    /// its moment) → levelUp; fed in the last 5 s → eating; a completion in the last 20 s →
    /// dance (a celebration wins over a reminder's nudge: the dance is never drawn with the
    /// nudge's alarmed face); petted in the last 4 s → petted; a reminder shown in the last 30 s →
    /// nudging; a focus session running → focus; otherwise idle (which runs on the clock, and
    /// is `worried` when the face of the mood is sad: see `pose`).
    public static func activity(_ state: PetState, at nowMs: Int64, levelUp: Bool = false) -> (activity: PetActivity, since: Int64) {
        let now = Instant(floorDiv(nowMs, 1000))
        if state.isAsleep(at: now) { return (.sleeping, 0) }
        func recent(_ t: Instant?, _ window: Int64) -> Int64? {
            guard let t else { return nil }
            let start = TimeRange.milliseconds(t)
            return nowMs >= start && nowMs.saturatingSubtracted(start) < window ? start : nil
        }
        if levelUp { return (.levelUp, recent(state.lastCelebration, .max) ?? 0) }
        if let s = recent(state.shop.lastFed, eatingMs) { return (.eating, s) }
        if let s = recent(state.lastCelebration, danceMs) { return (.dance, s) }
        if let s = recent(state.lastPetting, pettedMs) { return (.petted, s) }
        if let n = state.reminders.last, let s = recent(n.due, nudgeMs) { return (.nudging, s) }
        if let f = state.commitments.focus, now >= f.start, now < f.end { return (.focus, TimeRange.milliseconds(f.start)) }
        return (.idle, 0)
    }

    /// The pose at `nowMs`. With `animates == false` (e-paper) the activity's first step is
    /// shown, still. `mood` names the face for "@mood" steps (a PetCore mood's raw value).
    public static func pose(_ state: PetState, at nowMs: Int64, mood: String, animates: Bool = true,
                            levelUp: Bool = false, library: ArtLibrary = .builtIn) -> PetPose {
        let (found, since) = activity(state, at: nowMs, levelUp: levelUp)
        let act: PetActivity = found == .idle && mood == Mood.sad.rawValue ? .worried : found
        return pose(activity: act, phaseMs: animates ? nowMs - since : 0, mood: mood, library: library)
    }

    /// The pose of an activity `phaseMs` into its animation.
    public static func pose(activity: PetActivity, phaseMs: Int64, mood: String, library: ArtLibrary = .builtIn) -> PetPose {
        guard let anim = library.animations[activity.rawValue], !anim.steps.isEmpty else {
            return PetPose(activity: activity, step: 0, body: "stand", face: mood, dy: 0, effects: [])
        }
        let i = anim.stepIndex(at: phaseMs)
        let s = anim.steps[i]
        return PetPose(activity: activity, step: i, body: s.body, face: s.face == "@mood" ? mood : s.face, dy: s.dy, effects: s.effects)
    }
}
