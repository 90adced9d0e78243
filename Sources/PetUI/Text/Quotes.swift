/// Reframing quotes for the boot screen (our own wording): small steps, progress over perfection,
/// kindness to yourself. One per day, in table order.
public enum Quotes {
    public static let all: [String] = [
        "Small steps still move you forward.",
        "Done beats perfect. Start messy.",
        "Five minutes counts. Begin there.",
        "A slip is a step, not a fall.",
        "Progress, not perfection.",
        "You don't need to feel ready to start.",
        "One task at a time is plenty.",
        "Today's tiny win is tomorrow's habit.",
        "Rest is part of the work.",
        "Be as kind to yourself as to a friend.",
        "The hardest part is opening the door.",
        "Every day is a fresh page.",
        "Slow is smooth, smooth is steady.",
        "You showed up. That matters.",
    ]

    /// The quote for a day number (stable for the whole day, cycles through the table).
    public static func forDay(_ day: Int) -> String {
        let n = all.count
        return all[((day % n) + n) % n]
    }
}
