import PetCore

/// The recovery screen (docs/storage.md, recovery mode): drawn when the journal holds a row the
/// program cannot read, so it uses nothing of the state — no pet, no theme choice. In the owner's
/// words: what happened, that nothing is lost, what to do; in the display's legible face (12×16
/// on colour panels, 6×8 on the 1-bit ones), inside the panel (64 px on the OLED).
public enum RecoveryScreen {
    /// The lines for a display: the 128×64 OLED gets its own short ones (seven lines of 9 px).
    public static func lines(row: Int64?, tiny: Bool) -> (title: String, what: String, safe: String, todo: String) {
        let which = row.map { "Entry \($0)" } ?? "Part of my memory"
        if tiny {
            // Lines of at most 21 characters (the 6×8 face on 128 px), broken by hand.
            return ("I can't read it", row.map { "entry \($0) is damaged" } ?? "my memory is damaged",
                    "Nothing is lost or\nchanged. To fix:", "update DeskPet. Copy:\ndeskpetctl export")
        }
        return ("I can't read my memory", which + " is damaged or from a newer DeskPet.",
                "Nothing is lost or changed.", "To fix: update DeskPet. Copy first: deskpetctl export")
    }

    /// The screen for `profile`: white on black on the OLED, black on white on e-paper, the light
    /// theme on colour panels.
    public static func render(_ profile: DisplayProfile, row: Int64?) -> Canvas {
        let theme: Theme = Theme.resolve(.light, for: profile)
        var c = Canvas(width: profile.width, height: profile.height, background: theme.background)
        c.minimumFace = profile.minimumFace
        let fg = theme.text
        let tiny = profile.sizeClass == .tiny
        let t = lines(row: row, tiny: tiny)
        let face: TextSize = profile.smallestText
        let W = profile.width, H = profile.height
        if tiny {
            // A title bar, then six wrapped lines of 9 px: 9 + 54 = 63 ≤ 64.
            c.fillRect(x: 0, y: 0, w: W, h: 9, color: fg)
            Txt.draw(&c, "! " + t.title, x: 2, y: 1, theme.background, .small, maxWidth: W - 4)
            let lines = [t.what] + (t.safe + "\n" + t.todo).split(separator: "\n").map(String.init)
            for (i, s) in lines.prefix(6).enumerated() {
                Txt.draw(&c, s, x: 1, y: 10 + 9 * i, fg, .small, maxWidth: W - 2)
            }
            return c
        }
        let pad = profile.sizeClass == .paper ? 4 : 8
        let titleFace: TextSize = .large
        var y = pad
        c.fillRect(x: 0, y: 0, w: W, h: profile.sizeClass == .paper ? 2 : 6, color: profile.isMonochrome ? fg : theme.accent)
        y += Txt.drawWrapped(&c, t.title, x: pad, y: y, width: W - 2 * pad, maxLines: 2, fg, titleFace) + (pad / 2 + 2)
        let gap = profile.sizeClass == .paper ? 3 : 6
        for s in [t.what, t.safe, t.todo] {
            y += Txt.drawWrapped(&c, s, x: pad, y: y, width: W - 2 * pad, maxLines: 4, fg, face, lineGap: 2) + gap
        }
        _ = H
        return c
    }
}
