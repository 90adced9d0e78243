import PetCore
import PetDevice
import PetUI

/// The README pictures (`deskpet-sim pictures`, tools/readme-pictures.sh): the main screens drawn
/// by the device's own renderer on several display sizes, for a pet with a few days of history,
/// and a GIF of a short scenario played on the simulated device. Nothing is drawn by hand.
public enum Pictures {
    /// A pet with some history: tasks, a completed one, habits, coins to spend.
    public static let household = """
    start 2026-03-02 08:00 zone=Europe/Berlin
    send pet.name name=Mochi
    send task.create task=plants title="Water the plants" due="today 12:00" repeat=daily reminders="today 11:50"
    send task.create task=report title="Write the weekly report" priority=high due="tomorrow 17:00" estimate=90
    send task.create task=run title="Evening run" priority=low due="today 19:00" estimate=30
    send task.complete task=plants
    advance 1d
    send task.complete task=plants#1
    send task.complete task=run
    advance 1d
    send task.create task=tidy title="Tidy the desk" due="today 18:00"
    send task.complete task=plants#2
    advance 2h
    """

    /// The short scenario the README's GIF shows: a morning with the pet, buttons and a reward.
    public static let gifScenario = """
    start 2026-03-02 08:00 zone=Europe/Berlin
    send pet.name name=Mochi
    send task.create task=plants title="Water the plants" due="today 12:00" repeat=daily reminders="today 11:50"
    send task.create task=report title="Write the weekly report" priority=high due="today 17:00" estimate=90
    press A
    press A
    double B
    advance 3h50m
    hold B
    send task.complete task=report
    advance 20s
    """

    /// The screens the README shows, in order.
    public static let screens: [ScreenID] = [.home, .today, .taskDetail, .stats, .shop, .focus]

    /// A picture of one screen: file name and PNG bytes.
    public struct Picture: Sendable {
        public var name: String
        public var png: [UInt8]
    }

    /// Every screen of `screens` on every profile, drawn from the household's state
    /// (names: "<profile>/<screen>.png").
    public static func screenshots(profiles: [DisplayProfile], screens: [ScreenID] = Pictures.screens)
        throws(ScenarioError) -> [Picture] {
        let scenario = try ScenarioParser.parse(household, file: "<pictures>", name: "pictures")
        let device = try ScenarioPlayer().play(scenario)
        let state = device.app.state
        let now = device.now
        var out: [Picture] = []
        for profile in profiles {
            for id in screens {
                var ui = UIState(screen: id, lastInput: now)
                ui.detailTaskID = state.tasks.values.filter { $0.state == .pending }.map(\.id).sorted().first
                let context = ScreenContext(state: state, ui: ui, now: now, config: Navigator.Config(profile: profile),
                                            theme: Theme.resolve(state.device.theme, for: profile))
                var canvas = Canvas(width: profile.width, height: profile.height)
                Screens.render(context, into: &canvas)
                out.append(Picture(name: "\(profile.id)/\(id.rawValue).png", png: PNG.encode(rgb565: canvas)))
            }
        }
        return out
    }

    /// The GIF of `gifScenario`.
    public static func gif(profile: DisplayProfile = .square240) throws(ScenarioError) -> [UInt8] {
        let scenario = try ScenarioParser.parse(gifScenario, file: "<pictures-gif>", name: "pictures-gif")
        var options = ScenarioPlayer.Options()
        options.profile = profile
        return try GIFRecording.record(scenario, options: options).gif
    }
}
