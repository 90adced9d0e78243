import PetCore

/// Draws the screen a `ScreenContext` asks for, then the overlays (reminder, toasts), on a canvas
/// of the profile's size.
public enum Screens {
    public static func render(_ c: ScreenContext, into canvas: inout Canvas) {
        if canvas.width != c.profile.width || canvas.height != c.profile.height {
            canvas = Canvas(width: c.profile.width, height: c.profile.height, background: c.theme.background)
        }
        canvas.minimumFace = c.profile.minimumFace
        switch c.ui.screen {
        case .boot: BootScreen.render(c, &canvas)
        case .home: HomeView.render(c, &canvas)
        case .today: TodayScreen.render(c, &canvas)
        case .taskDetail: TaskDetailScreen.render(c, &canvas)
        case .shop: ShopScreen.render(c, &canvas)
        case .wardrobe: WardrobeScreen.render(c, &canvas)
        case .stats: StatsScreen.render(c, &canvas)
        case .focus: FocusScreen.render(c, &canvas)
        case .urgeLog: UrgeLogScreen.render(c, &canvas)
        case .commitments: CommitmentsScreen.render(c, &canvas)
        case .settings: SettingsScreen.render(c, &canvas)
        case .pairing: PairingScreen.render(c, &canvas)
        }
        HintBar.draw(c, &canvas)
        MenuOverlay.render(c, &canvas)
        Overlays.render(c, &canvas)
    }
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
