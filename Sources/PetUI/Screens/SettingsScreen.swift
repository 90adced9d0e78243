import PetCore

/// Settings: day start, quiet hours, theme, sound, brightness, dim/sleep, pause, and on boards
/// without the A+C chord the factory reset — one row each, as the navigator's view has them
/// (`NavRows.settings(hasChord:)`, values from `NavRows.settingText`), the cursor row highlighted;
/// while `ui.editingSetting` the value shows between arrows ("<60 %>"). The hint bar says what the keys do.
enum SettingsScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        l.header(&canvas, "Settings")
        l.hints(&canvas, c.view.hintText)
        if let list = c.view.list, let frame = ListLayout.frame(.settings, profile: c.profile, state: c.state, now: c.now) {
            l.list(&canvas, list, frame: frame)
        }
    }
}

extension SettingsScreen: ScreenDefinition {
    static let title = "Settings"
    static let icon = [
        "....XX....",
        ".XX.XX.XX.",
        ".XXXXXXXX.",
        "..XX..XX..",
        "XXX....XXX",
        "XXX....XXX",
        "..XX..XX..",
        ".XXXXXXXX.",
        ".XX.XX.XX.",
        "....XX...."]

    static func listFrame(_ m: ListLayout.Metrics, profile: DisplayProfile, state: PetState, now: Instant) -> ListFrame? {
        let content = m.content, hints = HintBar.height(profile)
        if m.big {
            let h = content.h - hints
            return ListFrame(area: Rect(x: 0, y: content.y + 2, w: m.W, h: h - 2), rowHeight: 28)
        }
        return ListFrame(area: Rect(x: 0, y: content.y, w: m.W, h: content.h - hints), rowHeight: m.size == .paper ? 16 : 9)
    }

    /// One row per setting with its value ("< value >" while edited); the factory reset row asks
    /// "Erase all?" with this board's key once armed.
    static func rows(ui: UIState, state s: PetState, now: Instant, config: Navigator.Config) -> [NavRow] {
        let tiny = config.profile.sizeClass == .tiny
        let rows = NavRows.settings(hasChord: config.hasChord)
        return rows.enumerated().map { k, st in
            let editing = ui.editingSetting && k == ui.cursor
            if st == .factoryReset {
                // Armed, the row asks and says which key of this board erases: "Erase all?
                // hold OK" (short enough to show whole on every display).
                guard editing else { return NavRow(id: "setting:" + st.rawValue, label: tiny ? st.terse : st.title) }
                return NavRow(id: "setting:" + st.rawValue, label: "Erase all?",
                              value: config.keys.name(.holdSelect) ?? "hold select")
            }
            var v = NavRows.settingText(st, state: s, editing: editing && st.isValue ? ui.editValue : nil)
            if editing { v = "<" + v + ">" }
            // The short label when the whole one and the value would not both fit the row (its
            // pads, the gap and the scroll bar): the value is never cut, nor the label.
            let big = config.profile.sizeClass == .square || config.profile.sizeClass == .wide
            let room = config.profile.width - (big ? 28 : 14)
            let fits = (st.title.count + v.count) * (big ? 12 : 6) <= room
            return NavRow(id: "setting:" + st.rawValue, label: tiny || !fits ? st.terse : st.title, value: v, valueLarge: true)
        }
    }

    static func actions(_ t: inout NavActionTable) {
        let (ui, config) = (t.ui, t.config)
        let row = t.sel("setting").flatMap(NavRows.SettingRow.init(rawValue:))
        if ui.editingSetting {
            if row == .factoryReset {
                if !config.hasChord { t.add(.holdSelect, .erase, rank: 0) }
                t.add(.select, .cancel, hinted: false); t.add(.forward, .cancel, hinted: false)
            } else {
                t.add(.previous, .up, rank: 2)
                t.add(.next, .down, rank: 2)
                t.add(.select, .save, rank: 0)
                t.add(.forward, .save, hinted: false)
            }
            t.add(.back, .cancel, rank: 0)
        } else {
            t.moves()
            if let row {
                let v: NavVerb = row.isValue || row == .factoryReset ? .edit : .command(.toggle)
                t.add(.select, v, rank: 0)
                t.add(.forward, v, hinted: false)
            }
            t.add(.back, .back)
        }
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        // The row the screen highlights (never act on another one).
        guard let row = nav.selected("setting").flatMap(NavRows.SettingRow.init(rawValue:)) else { return [] }
        if nav.ui.editingSetting {
            switch input {
            case .previous, .next:
                nav.ui.editValue = Navigator.step(row, nav.ui.editValue, up: input == .previous)
            case .select, .forward:
                nav.ui.editingSetting = false
                if let a = Navigator.action(row, value: nav.ui.editValue, state: state) { return [.send(a)] }
            case .holdSelect:
                // Only on the armed row the screen shows ("hold B to erase").
                if row == .factoryReset, !nav.config.hasChord { nav.ui.editingSetting = false; return [.factoryReset] }
            case .back: nav.ui.editingSetting = false
            default: break
            }
            return []
        }
        switch input {
        case .previous, .next: nav.move(input)
        case .select, .forward:
            if row.isValue || row == .factoryReset {
                nav.ui.editingSetting = true
                nav.ui.editValue = Navigator.value(row, state: state)
            } else if let a = Navigator.action(row, value: 0, state: state) {
                return [.send(a)]
            }
        case .back: nav.pop()
        default: break
        }
        return []
    }
}

// MARK: - Settings values

extension Navigator {
    static let dimChoices = [15, 30, 60, 120, 300, 600, 1800, 3600]
    static let sleepChoices = [60, 120, 300, 600, 900, 1800, 3600, 7200]

    /// The current value of a settings row (what editing starts from).
    static func value(_ row: NavRows.SettingRow, state: PetState) -> Int {
        switch row {
        case .dayStart: state.clock.dayStartHour
        case .quietStart: state.quiet.startMinute
        case .quietEnd: state.quiet.endMinute
        case .brightness: state.device.brightness
        case .dimAfter: state.device.dimAfter
        case .sleepAfter: state.device.sleepAfter
        case .theme, .sound, .pause, .factoryReset: 0
        }
    }

    /// One step up or down (wrapping) of a value row.
    static func step(_ row: NavRows.SettingRow, _ v: Int, up: Bool) -> Int {
        func choose(_ list: [Int]) -> Int {
            let i = list.lastIndex { $0 <= v } ?? 0
            let exact = list.indices.contains(i) && list[i] == v
            let j = up ? (i + 1) % list.count : (exact ? (i + list.count - 1) % list.count : i)
            return list[j]
        }
        switch row {
        case .dayStart: return ((v + (up ? 1 : -1)) % 24 + 24) % 24
        case .quietStart, .quietEnd:
            let m = v / 30 * 30
            return ((m + (up ? 30 : (m == v ? -30 : 0))) % 1440 + 1440) % 1440
        case .brightness:
            let b = v / 10 * 10
            let n = b + (up ? 10 : (b == v ? -10 : 0))
            return n > 100 ? 10 : (n < 10 ? 100 : n)
        case .dimAfter: return choose(dimChoices)
        case .sleepAfter: return choose(sleepChoices)
        case .theme, .sound, .pause, .factoryReset: return v
        }
    }

    /// The command a settings row sends: toggles flip, value rows save `value`.
    static func action(_ row: NavRows.SettingRow, value: Int, state: PetState) -> Action? {
        var d = state.device
        switch row {
        case .dayStart: return .setDayStart(hour: value)
        case .quietStart: return .setQuietHours(startMinute: value, endMinute: state.quiet.endMinute)
        case .quietEnd: return .setQuietHours(startMinute: state.quiet.startMinute, endMinute: value)
        case .theme: d.theme = d.theme == .dark ? .light : .dark
        case .sound: d.sound.toggle()
        case .brightness: d.brightness = value
        case .dimAfter: d.dimAfter = value
        case .sleepAfter: d.sleepAfter = value
        case .pause: return state.paused ? .resume : .pause
        case .factoryReset: return nil
        }
        return .setDevice(d)
    }
}

/// The settings rows (the navigator moves its cursor over them; `rows` labels them).
extension NavRows {
    // MARK: - Settings

    public enum SettingRow: String, Sendable, CaseIterable {
        /// The hour days start (0–23): B edits, A/D up/down, B saves.
        case dayStart = "day-start"
        /// Quiet hours start and end (minutes of the day, 30-minute steps): B edits.
        case quietStart = "quiet-start"
        case quietEnd = "quiet-end"
        /// Light/dark: B toggles.
        case theme
        /// Buzzer on/off: B toggles.
        case sound
        /// 10–100 % in steps of 10: B edits.
        case brightness
        /// Dim and sleep times (seconds): B edits.
        case dimAfter = "dim"
        case sleepAfter = "sleep"
        /// Pause (vacation) on/off: B toggles.
        case pause
        /// Factory reset, only on boards without the A+C chord (the joystick): B arms it, then
        /// hold B erases everything.
        case factoryReset = "factory-reset"

        /// The label on the settings screen.
        public var title: String {
            switch self {
            case .dayStart: "Day starts"
            case .quietStart: "Quiet from"
            case .quietEnd: "Quiet until"
            case .theme: "Theme"
            case .sound: "Sound"
            case .brightness: "Brightness"
            case .dimAfter: "Dim after"
            case .sleepAfter: "Sleep after"
            case .pause: "Pause"
            case .factoryReset: "Factory reset"
            }
        }

        /// The short label on 128×64.
        public var terse: String {
            switch self {
            case .dayStart: "Day start"
            case .quietStart: "Quiet from"
            case .quietEnd: "Quiet to"
            case .brightness: "Bright"
            case .dimAfter: "Dim"
            case .sleepAfter: "Sleep"
            case .factoryReset: "Reset"
            default: title
            }
        }

        /// Edited with a value (B, then up/down, then B) rather than toggled by B.
        public var isValue: Bool {
            switch self {
            case .dayStart, .quietStart, .quietEnd, .brightness, .dimAfter, .sleepAfter: true
            case .theme, .sound, .pause, .factoryReset: false
            }
        }
    }

    /// The settings rows; `factoryReset` only when the board has no A+C chord (no default: the
    /// board decides).
    public static func settings(hasChord: Bool) -> [SettingRow] {
        SettingRow.allCases.filter { hasChord ? $0 != .factoryReset : true }
    }

    /// The value a row shows, as text (`editing` = the pending value while editing).
    public static func settingText(_ row: SettingRow, state: PetState, editing: Int? = nil) -> String {
        func hm(_ minute: Int) -> String {
            let h = minute / 60, m = minute % 60
            return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
        }
        func duration(_ s: Int) -> String { s % 60 == 0 ? "\(s / 60) min" : "\(s) s" }
        switch row {
        case .dayStart: return hm((editing ?? state.clock.dayStartHour) * 60)
        case .quietStart: return hm(editing ?? state.quiet.startMinute)
        case .quietEnd: return hm(editing ?? state.quiet.endMinute)
        case .theme: return state.device.theme == .dark ? "dark" : "light"
        case .sound: return state.device.sound ? "on" : "off"
        case .brightness: return "\(editing ?? state.device.brightness) %"
        case .dimAfter: return duration(editing ?? state.device.dimAfter)
        case .sleepAfter: return duration(editing ?? state.device.sleepAfter)
        case .pause: return state.paused ? "on" : "off"
        // No value; armed, the navigator's view shows "Erase all?" and this board's key.
        case .factoryReset: return ""
        }
    }
}
