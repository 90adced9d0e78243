import PetCore

/// Placeholder until the screen is drawn (device-UI issue).
enum Overlays {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        _ = c
    }
}
