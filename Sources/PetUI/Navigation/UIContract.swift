import PetCore

/// The contract between navigation (Navigator.swift), the screens (Screens/) and the devices that
/// show them (PetDevice, PetSim): which displays exist and the UI state a screen is drawn from (the
/// screens themselves, `ScreenID` and their definitions: Screens/Screens.swift). Rendering is pure:
/// `Screens.render(ScreenContext) -> pixels`.

/// How a display shows pixels.
public enum DisplayKind: String, Sendable, Hashable {
    /// RGB565 colour (ST7789 over SPI, or a Linux framebuffer).
    case colour
    /// 1-bit monochrome OLED (SSD1306 over I2C): black and white only.
    case mono
    /// 1-bit e-paper (SSD1680): black and white, no animation, partial refreshes.
    case epaper
}

/// One supported display size (docs/screens.md).
public struct DisplayProfile: Sendable, Hashable, CustomStringConvertible {
    /// "240x240", "320x240", "128x64", "250x122".
    public var id: String
    public var width: Int
    public var height: Int
    public var kind: DisplayKind

    public init(id: String, width: Int, height: Int, kind: DisplayKind) {
        self.id = id; self.width = width; self.height = height; self.kind = kind
    }

    public static let square240 = DisplayProfile(id: "240x240", width: 240, height: 240, kind: .colour)
    public static let wide320 = DisplayProfile(id: "320x240", width: 320, height: 240, kind: .colour)
    public static let oled128 = DisplayProfile(id: "128x64", width: 128, height: 64, kind: .mono)
    public static let epaper250 = DisplayProfile(id: "250x122", width: 250, height: 122, kind: .epaper)
    public static let all: [DisplayProfile] = [.square240, .wide320, .oled128, .epaper250]

    public static func named(_ id: String) -> DisplayProfile? { all.first { $0.id == id } }

    /// 1-bit displays draw in black and white only.
    public var isMonochrome: Bool { kind != .colour }
    /// E-paper shows no animation.
    public var animates: Bool { kind != .epaper }
    public var description: String { id }
}

/// A short message over the screen: a reward, a badge, the pet's line.
public struct Toast: Sendable, Equatable {
    public enum Kind: String, Sendable { case reward, levelUp, badge, line, info }
    public var text: String
    public var kind: Kind
    public var until: Instant
    /// What it celebrates, for its full-screen moment (`Overlays`): the level reached, the badge's id.
    public var ref: String?
    public init(text: String, kind: Kind, until: Instant, ref: String? = nil) {
        self.text = text; self.kind = kind; self.until = until; self.ref = ref
    }
}

/// A focus session that completed: its minutes, the coins it earned, when it ended.
public struct FocusResult: Sendable, Equatable {
    public var minutes: Int
    public var coins: Int
    public var ended: Instant
    public init(minutes: Int, coins: Int, ended: Instant) { self.minutes = minutes; self.coins = coins; self.ended = ended }
    /// The break after a session: 5 minutes.
    public static let breakSeconds: Int64 = 5 * 60
    /// The break after it is running at `now`.
    public func onBreak(at now: Instant) -> Bool { now >= ended && now - ended < FocusResult.breakSeconds }
}

/// How a pairing attempt ended.
public enum PairingOutcome: Sendable, Equatable {
    /// The phone (by its name) is paired.
    case paired(phone: String)
    /// The code was wrong (the phone can try again until the lockout).
    case failed
    /// No phone entered the code before it expired.
    case timedOut
}

/// Backlight state (docs/screens.md: dims after 2 min, sleeps after 5 min, settable).
public enum PowerState: String, Sendable { case awake, dim, asleep }

/// Everything about what the device shows that is not domain state. Owned by `Navigator`;
/// screens only read it.
public struct UIState: Sendable, Equatable {
    public var screen: ScreenID = .boot
    /// Screens to go back to (C / back).
    public var backStack: [ScreenID] = []
    /// The highlighted row of a list screen: an index into its selectable rows (`NavRows`; the
    /// navigator's `view` has them), and `scroll`, the first row drawn (an index into all the
    /// view's rows, section labels included; also the menu's while it is open). On the home
    /// screen `cursor` is the index into `state.openTasks()` of the task shown (0 = the next one).
    public var cursor = 0
    public var scroll = 0
    /// The task the detail screen shows.
    public var detailTaskID: String?
    /// Stats page: 0 = 7-day bars, 1 = 30-day line, 2 = month heat map.
    public var statsPage = 0
    /// Urge log: the trigger ids offered (most likely first), the chosen index, then the outcome
    /// index into `QuitOutcome.allCases` (nil while choosing the trigger).
    public var urgeTriggers: [String] = []
    public var urgeTrigger = 0
    public var urgeOutcome: Int?
    /// Settings: the field being edited, if any (its row is `cursor`).
    public var editingSetting = false
    /// Shop: the tab (0 food, 1 wearables, 2 skins, 3 home items).
    public var shopTab = 0
    /// Circle: which of the circles joined (by id) the screen shows.
    public var circleTab = 0
    public var power: PowerState = .awake
    /// When the owner last pressed something (idle, dim and sleep count from here).
    public var lastInput: Instant
    /// Until when the boot screen shows.
    public var bootUntil: Instant?
    public var toasts: [Toast] = []
    /// The reminder overlay, while shown.
    public var reminder: Reminder?
    /// "Missed N reminders while off" banner count (0: none).
    public var missedBanner = 0
    /// The 6-digit code the pairing screen shows (set by the phone link).
    public var pairingCode: String?
    /// The menu over the home screen, while open: the highlighted row of `NavRows.menu`
    /// (nil: closed). Drawn by `MenuOverlay` (NavigatorMenuView.swift).
    public var menu: Int?
    /// Settings: the value being edited while `editingSetting` (hours for the day start, minutes
    /// of the day for quiet hours, percent for brightness, seconds for dim/sleep). Saved by B.
    public var editValue = 0
    /// Focus: the highlighted length while choosing one (an index into `FocusScreen.lengths`).
    public var focusLength = 1
    /// Focus: the session that just completed (from its event), for "session complete +N" and
    /// the break timer after it.
    public var focusResult: FocusResult?
    /// Urge log: the outcome just logged, for the confirmation (until `urgeLoggedUntil`).
    public var urgeLogged: QuitOutcome?
    public var urgeLoggedUntil: Instant?
    /// Pairing: how the last attempt ended (set by the phone link, `Navigator.setPairingOutcome`),
    /// shown on the pairing screen until the next code or a key.
    public var pairingOutcome: PairingOutcome?
    /// When the last phone's link dropped (the device loop: `Navigator.noteLinkLost`); a banner
    /// says so for `Overlays.linkLostSeconds`.
    public var linkLostAt: Instant?
    /// First run: the step shown (`FirstRunScreen.Step`), the name and zone highlighted.
    public var firstRunStep = 0
    public var firstRunChoice = 0
    /// First run: how far the hour step moved the clock (seconds), kept for the minute step.
    public var firstRunClock: Int64 = 0

    public init(screen: ScreenID = .boot, lastInput: Instant) {
        self.screen = screen
        self.lastInput = lastInput
    }
}

/// What a screen is drawn from: the domain state, the navigator's `UIState` and its `NavView`
/// (the list rows, the highlighted row, the visible window and the hints, made once by the
/// navigator for the board and display in use), the instant, the display and the theme.
public struct ScreenContext: Sendable {
    public var state: PetState
    public var ui: UIState
    /// What the navigator shows: screens draw its list and hints and compute no rows themselves.
    public var view: NavView
    public var now: Instant
    /// The same moment in milliseconds, for animation (blinks, dances, marquees).
    public var nowMs: Int64
    public var profile: DisplayProfile
    public var theme: Theme
    /// What the device knows beside the state (the phone link, the battery): the status strip.
    public var device = DeviceStatus()

    /// The screen a running navigator shows (its UI state and view; its display).
    public init(navigator: Navigator, state: PetState, now: Instant, nowMs: Int64? = nil, theme: Theme) {
        self.state = state; self.ui = navigator.ui; self.view = navigator.view; self.now = now
        self.profile = navigator.config.profile; self.theme = theme
        self.nowMs = nowMs ?? now.seconds &* 1000
    }

    /// A screen drawn from a bare `UIState` (previews, golden frames, benchmarks): the view is made
    /// by the navigator's own `Navigator.view(of:…)` for `config`'s board and display.
    public init(state: PetState, ui: UIState, now: Instant, nowMs: Int64? = nil, config: Navigator.Config, theme: Theme) {
        self.state = state; self.ui = ui; self.now = now; self.profile = config.profile; self.theme = theme
        self.nowMs = nowMs ?? now.seconds &* 1000
        var u = ui
        self.view = Navigator.makeView(ui: &u, state: state, now: now, config: config)
        self.ui = u
    }
}
