/// What the pet says (docs/domain.md#the-pet): short lines (≤ 60 characters) by occasion and personality.
/// Missed-item lines encourage and never blame. Lines are data: add one by adding an entry.

public enum LineKind: String, Codable, Sendable, CaseIterable {
    case greeting, nudge, taskDone = "task_done", streak, levelUp = "level_up", missed, purchase, petting, idle
    /// Food was bought (the pet looks forward to eating it; it cannot wear it).
    case purchaseFood = "purchase_food"
    /// A habit's text became editable (14 days after it was made).
    case habitUnlock = "habit_unlock"
}

public struct PetLine: Sendable, Equatable {
    /// Stable key stored in events, e.g. "done.3".
    public var key: String
    public var kind: LineKind
    /// nil = any personality.
    public var personality: Personality?
    public var text: String
}

public enum Lines {
    private static func l(_ key: String, _ kind: LineKind, _ p: Personality?, _ text: String) -> PetLine {
        PetLine(key: key, kind: kind, personality: p, text: text)
    }

    public static let all: [PetLine] = [
        // greeting
        l("greet.1", .greeting, nil, "Good to see you!"),
        l("greet.2", .greeting, nil, "Hi! Ready for today?"),
        l("greet.3", .greeting, .playful, "You're back! Let's play... I mean work!"),
        l("greet.4", .greeting, .calm, "Welcome back. One thing at a time."),
        l("greet.5", .greeting, .curious, "Hello! What are we doing today?"),
        l("greet.6", .greeting, .shy, "Oh, hi... I missed you a little."),
        l("greet.7", .greeting, .playful, "Boing! Morning energy activated!"),
        l("greet.8", .greeting, .calm, "A fresh day. Breathe in, breathe out."),
        // nudge
        l("nudge.1", .nudge, nil, "Psst... something is due soon."),
        l("nudge.2", .nudge, nil, "Small step now, big smile later?"),
        l("nudge.3", .nudge, .playful, "Tag, you're it! Go do the thing!"),
        l("nudge.4", .nudge, .calm, "Just five minutes. That's all it takes."),
        l("nudge.5", .nudge, .curious, "I wonder how fast you can do this one?"),
        l("nudge.6", .nudge, .shy, "Um... sorry to bug you... it's time."),
        l("nudge.7", .nudge, nil, "Future you says thanks in advance."),
        l("nudge.8", .nudge, .playful, "Beep boop! Task radar is pinging!"),
        // task done
        l("done.1", .taskDone, nil, "You did it! Yay!"),
        l("done.2", .taskDone, nil, "Done and dusted!"),
        l("done.3", .taskDone, .playful, "Woohoo! Happy dance time!"),
        l("done.4", .taskDone, .calm, "Nicely done. That felt good."),
        l("done.5", .taskDone, .curious, "Ooh, what's next on the list?"),
        l("done.6", .taskDone, .shy, "That was great... really great."),
        l("done.7", .taskDone, nil, "One less thing on your mind!"),
        l("done.8", .taskDone, .playful, "Crushed it! High five!"),
        l("done.9", .taskDone, .calm, "Steady progress. I'm proud of you."),
        l("done.10", .taskDone, .curious, "Did you know finishing feels this good?"),
        // streak
        l("streak.1", .streak, nil, "Streak growing! Keep it rolling."),
        l("streak.2", .streak, nil, "Another day, another win!"),
        l("streak.3", .streak, .playful, "On fire! Well, a cozy little fire."),
        l("streak.4", .streak, .calm, "Day by day, it becomes who you are."),
        l("streak.5", .streak, .curious, "How long can we keep this going?"),
        l("streak.6", .streak, .shy, "You keep showing up... that's amazing."),
        l("streak.7", .streak, nil, "Consistency looks good on you."),
        // level up
        l("level.1", .levelUp, nil, "Level up! I feel stronger!"),
        l("level.2", .levelUp, nil, "New level unlocked!"),
        l("level.3", .levelUp, .playful, "Ding! Ding! Level up party!"),
        l("level.4", .levelUp, .calm, "A new level. Well earned."),
        l("level.5", .levelUp, .curious, "Ooh, what does this level bring?"),
        l("level.6", .levelUp, .shy, "I grew a little... thanks to you."),
        l("level.7", .levelUp, nil, "Look at us go! Higher and higher!"),
        // missed (encouraging, never blaming)
        l("missed.1", .missed, nil, "That one slipped by. Tomorrow's new."),
        l("missed.2", .missed, nil, "No worries. We try again."),
        l("missed.3", .missed, .playful, "Oops! Shake it off, next round!"),
        l("missed.4", .missed, .calm, "It's okay. Rest, then begin again."),
        l("missed.5", .missed, .curious, "Maybe a smaller step next time?"),
        l("missed.6", .missed, .shy, "It happens to me too... it's fine."),
        l("missed.7", .missed, nil, "One miss doesn't undo your progress."),
        l("missed.8", .missed, .calm, "Be kind to yourself today."),
        // purchase
        l("buy.1", .purchase, nil, "Ooh, for me? Thank you!"),
        l("buy.2", .purchase, nil, "I love it!"),
        l("buy.3", .purchase, .playful, "Shiny! Can I try it right now?"),
        l("buy.4", .purchase, .calm, "A lovely choice. Thank you."),
        l("buy.5", .purchase, .curious, "What does this do? Let me see!"),
        l("buy.6", .purchase, .shy, "For me? You're too kind..."),
        // food bought
        l("food.1", .purchaseFood, nil, "Yum! Is that a snack for me?"),
        l("food.2", .purchaseFood, nil, "Food! My tummy says thank you."),
        l("food.3", .purchaseFood, .playful, "Snack attack! Can I eat it now?"),
        l("food.4", .purchaseFood, .calm, "Something tasty for later. Thank you."),
        l("food.5", .purchaseFood, .curious, "Ooh, what does it taste like?"),
        l("food.6", .purchaseFood, .shy, "A treat for me? ...thank you."),
        // petting
        l("pet.1", .petting, nil, "Hehe, that tickles!"),
        l("pet.2", .petting, nil, "Purr... more please."),
        l("pet.3", .petting, .playful, "Again! Again!"),
        l("pet.4", .petting, .calm, "Mmm, that's nice."),
        l("pet.5", .petting, .curious, "Was that a pat? I like pats."),
        l("pet.6", .petting, .shy, "Oh! ...thank you."),
        // idle
        l("idle.1", .idle, nil, "Just hanging out here."),
        l("idle.2", .idle, nil, "Drink some water maybe?"),
        l("idle.3", .idle, .playful, "Bored! Let's finish something fun."),
        l("idle.4", .idle, .calm, "Quiet moments are nice too."),
        l("idle.5", .idle, .curious, "I wonder what clouds taste like."),
        l("idle.6", .idle, .shy, "I'll just sit here... quietly."),
        l("idle.7", .idle, nil, "Stretch break? Your back says yes."),
        l("idle.8", .idle, .playful, "Hop hop hop. Still hopping."),
        // habit text unlocked
        l("unlock.1", .habitUnlock, nil, "Two weeks in! You can reword a habit now."),
        l("unlock.2", .habitUnlock, nil, "A habit grew up: its words are yours to edit."),
        l("unlock.3", .habitUnlock, .playful, "Level up for a habit! Edit it if you like."),
        l("unlock.4", .habitUnlock, .calm, "Fourteen days. Tune a habit's words if needed."),
    ]

    private static let byKey: [String: PetLine] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    public static func line(key: String) -> PetLine? { byKey[key] }

    /// Picks a line for an occasion, deterministically from `seed`, never equal to `previous`.
    /// Lines for the pet's personality and for any personality are candidates.
    public static func pick(_ kind: LineKind, personality: Personality, seed: Int, previous: String?) -> PetLine {
        let candidates = all.filter { $0.kind == kind && ($0.personality == nil || $0.personality == personality) }
        // Every kind has at least two candidates for every personality (tested), so a different
        // line always exists.
        let mixed = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15
        var i = Int((mixed >> 33) % UInt64(candidates.count))
        if candidates[i].key == previous { i = (i + 1) % candidates.count }
        return candidates[i]
    }
}
