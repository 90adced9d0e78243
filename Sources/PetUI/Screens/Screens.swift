import PetCore

/// Every screen of the device (docs/screens.md). Overlays (reminder, toasts) draw on top of any
/// screen. Each has a definition (`definition` below): adding a screen is its file under Screens/
/// plus its case here and its line in `definition` (docs/architecture.md, "Adding a screen").
public enum ScreenID: String, CaseIterable, Sendable, Hashable {
    case boot
    case home
    /// Today's tasks and the habit checklist.
    case today
    case taskDetail = "task-detail"
    /// The shop: tabs of catalogue items to buy (not the event store, which is PetStore).
    case shop
    /// What the pet wears and what stands in its home.
    case wardrobe
    /// 7-day bars, 30-day line, month heat map (`UIState.statsPage`).
    case stats
    /// A focus session's countdown (or starting one).
    case focus
    case urgeLog = "urge-log"
    case commitments
    /// A circle's leaderboard and its challenge (docs/circles.md).
    case circle
    /// Day start, quiet hours, theme, sound, brightness, pause.
    case settings
    case pairing
    /// The pet's status (fullness, energy, mood, age, level) with feed and play.
    case petCare = "pet-care"
    /// The first minutes with a new pet: meet it, name it, the clock, the buttons, pairing.
    case firstRun = "first-run"
}

extension NavRows {
    /// The menu opened from home (tap B): a ring (it wraps both ways) that opens on its first
    /// entry, so the first entry costs one press after the menu and its two neighbours (the last
    /// entry: A up; the second: down, which is hold A on three buttons) two. Stats (the pet's
    /// "status", Tamagotchi's first icon) comes first, the focus timer and the wardrobe (food:
    /// hold B there feeds) next to it; the rest by how often they are used (docs/navigation.md),
    /// pet care (feed and play) before settings.
    public static let menu: [ScreenID] = [
        .stats, .focus, .today, .shop, .urgeLog, .commitments, .circle, .petCare, .settings, .pairing, .wardrobe,
    ]
}

extension ScreenID {
    /// Every screen's definition (its rows, actions, inputs and drawing, in one file under
    /// Screens/): the one table of screens. A new case does not compile until it is listed here.
    var definition: any ScreenDefinition.Type {
        switch self {
        case .boot: BootScreen.self
        case .home: HomeView.self
        case .today: TodayScreen.self
        case .taskDetail: TaskDetailScreen.self
        case .shop: ShopScreen.self
        case .wardrobe: WardrobeScreen.self
        case .stats: StatsScreen.self
        case .focus: FocusScreen.self
        case .urgeLog: UrgeLogScreen.self
        case .commitments: CommitmentsScreen.self
        case .circle: CircleScreen.self
        case .settings: SettingsScreen.self
        case .pairing: PairingScreen.self
        case .petCare: PetCareScreen.self
        case .firstRun: FirstRunScreen.self
        }
    }
}

/// Draws the screen a `ScreenContext` asks for, then the overlays (reminder, toasts), on a canvas
/// of the profile's size.
public enum Screens {
    /// Returns the areas drawn (the whole canvas the first time; Damage.swift).
    @discardableResult
    public static func render(_ c: ScreenContext, into canvas: inout Canvas) -> [Rect] {
        if canvas.width != c.profile.width || canvas.height != c.profile.height {
            canvas = Canvas(width: c.profile.width, height: c.profile.height, background: c.theme.background)
        }
        canvas.minimumFace = c.profile.minimumFace
        // Recorded, then drawn only where it differs from the previous frame (Damage.swift).
        // Parts (`Canvas.part`) are reused only under the same theme on the same display.
        canvas.beginFrame(context: FrameContext(theme: c.theme, profile: c.profile))
        c.ui.screen.definition.render(c, &canvas)
        HintBar.draw(c, &canvas)
        MenuOverlay.render(c, &canvas)
        Overlays.render(c, &canvas)
        return canvas.endFrame()
    }
}

/// What every part of a frame depends on besides its own inputs.
struct FrameContext: Hashable, Sendable {
    var theme: Theme
    var profile: DisplayProfile
}

extension Theme {
    /// The theme for a display: the owner's light/dark choice on colour displays and e-paper
    /// (black on white, or white on black); always white on black on the OLED (`DisplayKind.mono`,
    /// SSD1306), whatever the choice: lit pixels wear the panel and glare in a dark room.
    public static func resolve(_ name: DeviceSettings.ThemeName, for profile: DisplayProfile) -> Theme {
        switch profile.kind {
        case .mono: return .monoDark
        case .epaper: return name == .dark ? .monoDark : .monoLight
        case .colour: return name == .dark ? .dark : .light
        }
    }
}
