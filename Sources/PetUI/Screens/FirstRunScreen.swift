import PetCore

/// The first run, after the first boot (`Navigator.Config.firstRun`, until
/// `DeviceSettings.welcomeDone`): meet the pet, name it (a suggestion picked with the buttons, or
/// a name the phone sent), the zone (kept, picked, or sent by the phone), the clock's hour and
/// minutes (up and down, or sent by the phone), a three-step
/// button tutorial that waits for each gesture, and an invitation to pair a phone. Back skips it
/// at any step; finishing or skipping sends `settings.device` with `welcomeDone`, so it is in the
/// journal and never shows again, after a restart or a replay.
enum FirstRunScreen {
    enum Step: Int, CaseIterable {
        case meet, name, clock, hour, minute, move, choose, hold, pair
    }

    /// The time the clock steps show: the device's, moved by the hour step (`ui.firstRunClock`) and
    /// by the step's own choice (hours on the hour step, minutes on the minute step, each wrapping
    /// in its own field: 23 → 00 does not change the date).
    static func clockOffset(_ ui: UIState, state: PetState, now: Instant) -> Int64 {
        let local = state.clock.local(now + ui.firstRunClock)
        switch step(ui) {
        case .hour:
            let h = local.hour, d = ((ui.firstRunChoice % 24) + 24) % 24
            return ui.firstRunClock + Int64(((h + d) % 24 - h) * 3_600)
        case .minute:
            let m = local.minute, d = ((ui.firstRunChoice % 60) + 60) % 60
            return ui.firstRunClock + Int64(((m + d) % 60 - m) * 60)
        default: return ui.firstRunClock
        }
    }

    /// Names offered (the current one first when the phone gave it another).
    static let names = ["Pip", "Mochi", "Bean", "Nori", "Tofu", "Miso"]

    static func nameChoices(_ s: PetState) -> [String] {
        names.contains(s.pet.name) ? names : [s.pet.name] + names
    }

    /// Zones offered: the device's own first, then a few common ones (the phone sends any other).
    static func zoneChoices(_ s: PetState) -> [String] {
        var out = [s.zoneID]
        for z in ["Europe/London", "Europe/Berlin", "America/New_York", "America/Los_Angeles", "Asia/Tokyo", "UTC"]
        where !out.contains(z) { out.append(z) }
        return out
    }

    static func step(_ ui: UIState) -> Step { Step(rawValue: ui.firstRunStep) ?? .meet }

    /// The key a tutorial step asks for, as the board names it.
    static func key(_ c: ScreenContext, _ input: NavInput) -> String { c.view.keys.name(input) ?? "?" }

    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        let st = step(c.ui)
        let n = Step.allCases.count
        let tiny = l.size == .tiny
        let m: Moment
        let title: String
        switch st {
        case .meet:
            title = "Hello!"
            m = Moment(title: tiny ? "Hi, I'm new!" : "Hi! I'm your new pet.",
                       lines: [tiny ? "Let's set me up" : "Let's set me up. It takes a minute."], pose: .dance)
        case .name:
            title = "My name"
            let choices = nameChoices(s)
            let name = choices[min(max(0, c.ui.firstRunChoice), choices.count - 1)]
            m = Moment(title: tiny ? "Call me" : "What will you call me?", figure: name,
                       lines: [tiny ? "or name me in the app" : "Or type a name in the DeskPet app."], pose: .petted)
        case .clock:
            title = "Clock"
            let zones = zoneChoices(s)
            let zone = zones[min(max(0, c.ui.firstRunChoice), zones.count - 1)]
            m = Moment(title: tiny ? "Time zone" : "Where are you?", figure: Fmt.clock(s.clock.local(c.now)),
                       lines: [zone, tiny ? "or set it in the app" : "The app can set it too."])
        case .hour, .minute:
            title = "Clock"
            let shown = Fmt.clock(s.clock.local(c.now + clockOffset(c.ui, state: s, now: c.now)))
            let part = st == .hour ? "hour" : "minutes"
            m = Moment(title: tiny ? "Set the \(part)" : "Set the \(part):", figure: shown,
                       lines: [tiny ? "or from the app" : "Up and down change it; the app can set it."])
        case .move:
            title = "Buttons 1/3"
            m = Moment(title: tiny ? "Moves down:" : "This moves down:", figure: key(c, .next),
                       lines: [tiny ? "Try it!" : "Try it now!"])
        case .choose:
            title = "Buttons 2/3"
            m = Moment(title: tiny ? "Opens:" : "This opens and picks:", figure: key(c, .select),
                       lines: [tiny ? "Try it!" : "Try it now!"])
        case .hold:
            title = "Buttons 3/3"
            m = Moment(title: tiny ? "Marks done:" : "This marks a task done:", figure: key(c, .holdSelect),
                       lines: [tiny ? "Try it!" : "Try it now!"], pose: .dance)
        case .pair:
            title = "Phone"
            m = Moment(title: tiny ? "Pair a phone?" : "Pair your phone?",
                       lines: [tiny ? "Tasks from the app" : "Then tasks and reminders come from the app."])
        }
        l.header(&canvas, title, right: "\(st.rawValue + 1)/\(n)")
        let area = l.content
        MomentView.draw(l, &canvas, m, area: Rect(x: 0, y: area.y, w: l.W, h: l.bottom - area.y))
    }

    /// Finishing (or skipping): the setting that keeps it from showing again.
    static func done(_ state: PetState) -> NavEffect {
        var d = state.device
        d.welcomeDone = true
        return .send(.setDevice(d))
    }
}

extension FirstRunScreen: ScreenDefinition {
    static let title = "Welcome"

    static func actions(_ t: inout NavActionTable) {
        switch step(t.ui) {
        case .meet: t.add(.select, .nextStep, rank: 0)
        case .name, .clock, .hour, .minute:
            t.add(.previous, .up, rank: 2)
            t.add(.next, .down, rank: 2)
            t.add(.select, .nextStep, rank: 0)
        case .move: t.add(.next, .nextStep, rank: 0)
        case .choose: t.add(.select, .nextStep, rank: 0)
        case .hold: t.add(.holdSelect, .nextStep, rank: 0)
        case .pair: t.add(.select, .open(.pairing), rank: 0)
        }
        t.add(.back, .skip)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        let st = step(nav.ui)
        func advance() { nav.ui.firstRunStep = st.rawValue + 1; nav.ui.firstRunChoice = 0 }
        switch (st, input) {
        case (.meet, .select), (.move, .next), (.choose, .select), (.hold, .holdSelect):
            advance()
        case (.name, .previous), (.name, .next), (.clock, .previous), (.clock, .next):
            let n = st == .name ? nameChoices(state).count : zoneChoices(state).count
            nav.ui.firstRunChoice = (min(max(0, nav.ui.firstRunChoice), n - 1) + (input == .next ? 1 : n - 1)) % n
        case (.hour, .previous), (.hour, .next), (.minute, .previous), (.minute, .next):
            // Up is later, down earlier (the figure counts up as the list's up moves up).
            let n = st == .hour ? 24 : 60
            nav.ui.firstRunChoice = ((nav.ui.firstRunChoice + (input == .previous ? 1 : -1)) % n + n) % n
        case (.hour, .select):
            let offset = clockOffset(nav.ui, state: state, now: now)
            advance()
            nav.ui.firstRunClock = offset
        case (.minute, .select):
            let offset = clockOffset(nav.ui, state: state, now: now)
            advance()
            nav.ui.firstRunClock = 0
            if offset != 0 { return [.setClock(bySeconds: offset)] }
        case (.name, .select):
            let choices = nameChoices(state)
            let name = choices[min(max(0, nav.ui.firstRunChoice), choices.count - 1)]
            advance()
            if name != state.pet.name { return [.send(.renamePet(name: name))] }
        case (.clock, .select):
            let zones = zoneChoices(state)
            let zone = zones[min(max(0, nav.ui.firstRunChoice), zones.count - 1)]
            advance()
            if zone != state.zoneID { return [.send(.setTimeZone(id: zone))] }
        case (.pair, .select):
            nav.goHome()
            nav.ui.backStack = [.home]
            nav.ui.screen = .pairing
            return [done(state)]
        case (_, .back):
            nav.goHome()
            return [done(state)]
        default: break
        }
        return []
    }

    static func opened(_ ui: inout UIState, state: PetState?, now: Instant?) {
        ui.firstRunStep = 0; ui.firstRunChoice = 0; ui.firstRunClock = 0
    }

    /// It waits for the owner (its steps are read at their pace).
    static func staysOpen(ui: UIState, state: PetState) -> Bool { true }
}
