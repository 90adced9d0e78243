import PetDevice

/// The scenario `deskpet-sim` runs with no arguments: a few days in the life of a new pet.
public enum Demo {
    public static let name = "demo"
    public static let text = """
    # DeskPet demo: three days with a new pet (runs when deskpet-sim gets no arguments).
    # Its screen checks hold on every display size (deskpet-sim --board sim-oled-128x64).
    start 2026-03-02 08:00 zone=Europe/Berlin
    send pet.name name=Mochi
    send task.create task=report title="Write the weekly report" priority=high due="tomorrow 17:00" estimate=90
    send task.create task=plants title="Water the plants" due="today 12:00" repeat=daily reminders="today 11:50"
    send task.create task=run title="Evening run" priority=low due="tomorrow 19:00" estimate=30
    snapshot 1-morning.png
    expect screen "Water the"
    advance 3h50m
    expect screen "Reminder"
    hold B
    expect task.plants.state == completed
    expect coins == 8
    send task.complete task=report
    expect coins == 39
    expect level == 2
    snapshot 2-level-up.png
    advance 1d
    send task.complete task=run
    send task.complete task=plants#1
    expect coins == 54
    advance 1d
    expect streak == 2
    expect task.plants#2.state == pending
    advance 1d
    expect task.plants#2.state == missed
    expect streak == 0
    expect screen "Reminder"
    snapshot 3-day-three.png
    restart
    """

    /// The demo for a board's keys: the joystick's select is its centre key.
    public static func text(for layout: InputLayout) -> String {
        guard layout == .joystick else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line -> String in
                if line == "hold B" { return "hold CENTRE" }
                if line.hasPrefix("start ") { return line + " buttons=joystick" }
                return String(line)
            }
            .joined(separator: "\n")
    }
}
