import PetCore
import PetUI

// The whole hardware layer, as small as TamaLIB's hal.h: six protocols of a few requirements each.
// A board is a set of these (`Hardware`); the device loop (DeviceLoop.swift) is the only caller.
// Linux backends live in PetLinux, simulated ones in PetSim. docs/architecture.md#hardware-layer.

/// Time as the device sees it.
public protocol DeviceClock: AnyObject {
    /// Wall time: milliseconds since 1970-01-01 UTC (may jump when the clock is set).
    var wallMs: Int64 { get }
    /// Monotonic nanoseconds (never jumps; the clock the kernel stamps input events with).
    var monotonicNs: UInt64 { get }
}

/// A wall clock the phone may set (`time.set`, the Current Time characteristic): the daemon's
/// system clock (with CAP_SYS_TIME), the simulator's virtual one. `Hardware.settableClock`.
public protocol SettableClock: AnyObject {
    func setWallMs(_ ms: Int64) throws(HardwareError)
}

/// One button edge with the kernel's timestamp (monotonic ns).
public struct InputEdge: Sendable, Equatable {
    public var button: Button
    /// True: the button went down.
    public var pressed: Bool
    /// When, on the `DeviceClock.monotonicNs` time line.
    public var ns: UInt64
    public init(_ button: Button, pressed: Bool, ns: UInt64) { self.button = button; self.pressed = pressed; self.ns = ns }
}

/// Where button edges come from: GPIO lines, an evdev node, a terminal, a script.
public protocol InputSource: AnyObject {
    /// A descriptor that becomes readable when edges are waiting (nil: the source is only read
    /// when the loop wakes for another reason, as scripted input is).
    var fileDescriptor: Int32? { get }
    /// The edges waiting now, oldest first. Never blocks.
    func readEdges() throws(HardwareError) -> [InputEdge]
}

/// What the pipeline hands a panel: the rectangles that changed, packed in the panel's format,
/// the surface they came from (for drivers that copy pixels themselves, like fbdev), and for
/// e-paper how to refresh.
public struct PanelFrame: Sendable {
    public enum Refresh: Sendable, Equatable {
        /// Colour and OLED panels: the pixels show as soon as they are written.
        case immediate
        /// E-paper: refresh only the written window (fast, no flashing).
        case partial
        /// E-paper: refresh the whole panel (flashes; clears ghosting).
        case full
    }
    public var rects: [PackedRect]
    public var surface: PanelSurface
    public var refresh: Refresh
    public init(rects: [PackedRect], surface: PanelSurface, refresh: Refresh) {
        self.rects = rects; self.surface = surface; self.refresh = refresh
    }
    public var byteCount: Int { rects.reduce(0) { $0 + $1.bytes.count } }
}

/// A display. Sizes are in the UI's orientation; a driver applies `rotation` itself (ST7789's
/// MADCTL, a framebuffer copy).
public protocol Panel: AnyObject {
    var format: PixelFormat { get }
    var width: Int { get }
    var height: Int { get }
    /// Degrees clockwise the panel is mounted: 0, 90, 180 or 270.
    var rotation: Int { get }
    /// E-paper: no animation, partial and full refreshes.
    var isEPaper: Bool { get }
    /// Shows a frame. The first frame after start is always the whole surface.
    func flush(_ frame: PanelFrame) throws(HardwareError)
    /// Backlight (or contrast) in percent; 0 = off (the screen sleeps). E-paper ignores it.
    func setBrightness(_ percent: Int) throws(HardwareError)
    /// How its frames are seen (`live` unless the panel says otherwise).
    var presentation: PanelPresentation { get }
}

/// How a panel's frames are seen, which decides when the device loop draws them.
public enum PanelPresentation: Sendable, Equatable {
    /// Glass someone watches: every wake-up's frame is drawn and sent as it comes (what changed),
    /// none while a colour or OLED screen is dark, and colour panels wipe between screens.
    case live
    /// A headless panel whose picture is taken when someone looks (the simulator's snapshots,
    /// `expect screen`, its terminal): the frame is drawn then (`DeviceLoop.present`), also while
    /// the screen is dark — the picture shows what the screen holds — and frames nobody looks at
    /// are never drawn.
    case lookedAt
}

extension Panel {
    public var presentation: PanelPresentation { .live }
}

/// The buzzer's sounds (docs/sound-and-light.md).
public enum Tone: String, Sendable, CaseIterable {
    /// A setting changed.
    case tick
    /// A reward, a level-up, a challenge won.
    case celebration
    /// A reminder is due.
    case nudge
    /// Something was declined.
    case softBuzz = "soft-buzz"
    /// A stake was forfeited.
    case strongBuzz = "strong-buzz"
}

/// A buzzer (a GPIO line with software PWM, a PWM channel, or a recorder in the simulator).
public protocol Sounder: AnyObject {
    /// Starts a tone pattern; returns at once (a later one replaces it).
    func play(_ tone: Tone) throws(HardwareError)
}

/// The LED's patterns (docs/sound-and-light.md).
public enum LightPattern: String, Sendable, CaseIterable {
    case off
    /// A reminder is due: slow pulses.
    case nudge
    /// A reward: a short bright flourish.
    case celebration
}

/// An LED (one line, or an RGB LED).
public protocol Indicator: AnyObject {
    func show(_ pattern: LightPattern) throws(HardwareError)
}

/// The phone link's transport: clients coming and going and bytes in and out. `LinkEvent.frame`
/// carries whatever piece of a client's byte stream arrived and `send` writes the bytes given (the
/// framing, reassembly and protocol live above it, in a `LinkServing`: PetLink's `LinkService`,
/// docs/protocol.md). PetLink's `SocketLink` is TCP and Unix sockets; BLE cuts the same stream into
/// MTU−3 sized chunks.
public protocol PhoneLink: AnyObject {
    /// A descriptor that becomes readable when frames (or connections) are waiting.
    var fileDescriptor: Int32? { get }
    /// What happened since the last call, in order. Never blocks.
    func receive() throws(HardwareError) -> [LinkEvent]
    /// Sends a frame to one client (a client that is gone is not an error).
    func send(_ frame: LinkFrame) throws(HardwareError)
    /// Drops a client (bad input, a timeout).
    func disconnect(client: Int)
    /// Bytes sent to `client` that the transport still holds (not yet taken by the kernel or
    /// the radio): long answers wait while it is high (back-pressure). 0 when unknown.
    func queuedBytes(client: Int) -> Int
}

extension PhoneLink {
    public func queuedBytes(client: Int) -> Int { 0 }
}

/// One message of the phone link, with the client it came from or goes to.
public struct LinkFrame: Sendable, Equatable {
    public var client: Int
    public var bytes: [UInt8]
    public init(client: Int, bytes: [UInt8]) { self.client = client; self.bytes = bytes }
}

/// What a transport reports.
public enum LinkEvent: Sendable, Equatable {
    case connected(client: Int)
    case frame(LinkFrame)
    case disconnected(client: Int)
}

/// A board's hardware: what the device loop drives.
public struct Hardware {
    public var clock: DeviceClock
    public var inputs: [InputSource]
    public var panel: Panel
    public var sounder: Sounder?
    public var indicator: Indicator?
    public var link: PhoneLink?
    /// The clock again, when the phone may set it (`time.set`, Current Time): the daemon's system
    /// clock, the simulator's virtual one. nil: the phone's time is refused.
    public var settableClock: SettableClock?
    /// A simulator board's stand-in for a connected phone (`SimulatedParts.linkStandIn`); nil on
    /// a real board, whose status strip shows the link's clients.
    public var linkStandIn: LinkStandIn?

    public init(clock: DeviceClock, inputs: [InputSource], panel: Panel, sounder: Sounder? = nil,
                indicator: Indicator? = nil, link: PhoneLink? = nil, settableClock: SettableClock? = nil,
                linkStandIn: LinkStandIn? = nil) {
        self.clock = clock; self.inputs = inputs; self.panel = panel
        self.sounder = sounder; self.indicator = indicator; self.link = link; self.settableClock = settableClock
        self.linkStandIn = linkStandIn
    }
}

/// What a simulator board reports about its phone link in place of the link's own clients: the
/// scenario step `device link on` shows a phone as connected whatever the link does, `device link
/// off` hands the status back to the link (docs/scenarios.md#device).
public final class LinkStandIn {
    /// true: the status strip shows a phone connected; nil: the link's clients decide.
    public var phoneConnected: Bool?
    public init() {}
}
