/// Turns raw button edges into gestures, purely: a function of (button, level, monotonic ns).
/// Shared by GPIO, evdev, terminal and scripted input.
///
/// - tap: reported on the first (press) edge, with no added latency;
/// - double tap: a press within `doubleTapNs` of the previous release of the same button
///   (reported instead of a second tap);
/// - long press: still held `longPressNs` after the press (reported by `poll(now:)`);
/// - chord: A and C down together (only A and C: the other keys never chord) (the second press within `chordNs` of the first, or while the
///   first is still held) is reported once instead of the second button's tap;
/// - chord held: A and C both held for `chordHoldNs` (3 s) — the factory-reset confirmation;
/// - bounces: edges within `debounceNs` of the last accepted edge of that button are ignored; the
///   level the last of them left is applied once the window has passed (`poll`, or the next edge),
///   so a release seen only as a bounce still releases the key. Edges stamped late (a kernel's own
///   debounce stamps an edge when its timer runs, which a busy machine delays) can land a real
///   release within the window of its press: without this, the key stayed down for the recognizer
///   and turned a tap into a long press.

/// Every input key a board may have: the three buttons A (previous/up), B (select), C (back); the
/// fourth button D (next/down) of 4-button boards; the five keys of a 5-way joystick. Which ones a
/// board has, and what they mean, is its `InputLayout`.
public enum Button: String, Sendable, CaseIterable, Hashable {
    case a = "A", b = "B", c = "C", d = "D"
    case up = "UP", down = "DOWN", left = "LEFT", right = "RIGHT", centre = "CENTRE"
}

public enum Gesture: Sendable, Equatable {
    case tap(Button)
    case doubleTap(Button)
    case longPress(Button)
    case chordAC
    /// A and C held together for 3 seconds.
    case chordHeld
}

public struct GestureRecognizer: Sendable {
    public var debounceNs: UInt64 = 30_000_000
    public var longPressNs: UInt64 = 700_000_000
    public var doubleTapNs: UInt64 = 300_000_000
    public var chordHoldNs: UInt64 = 3_000_000_000
    var chordHeldReported = false

    struct ButtonState {
        var down = false
        var lastEdge: UInt64?
        var pressedAt: UInt64 = 0
        var releasedAt: UInt64?
        var longReported = false
        var inChord = false
        /// The level a bounce within the debounce window left, and when (nil: none differs from `down`).
        var heldBack: (pressed: Bool, ns: UInt64)?
    }
    /// Each key's state, at its place in `Button.allCases` (nil: never seen): a fixed list, not a
    /// dictionary, so a poll hashes nothing and allocates nothing.
    struct ButtonStates {
        static let order: [Button] = Button.allCases
        var slots: [ButtonState?] = Array(repeating: nil, count: ButtonStates.order.count)
        static func index(_ b: Button) -> Int {
            switch b {
            case .a: 0
            case .b: 1
            case .c: 2
            case .d: 3
            case .up: 4
            case .down: 5
            case .left: 6
            case .right: 7
            case .centre: 8
            }
        }
        subscript(_ b: Button) -> ButtonState? {
            get { slots[Self.index(b)] }
            set { slots[Self.index(b)] = newValue }
        }
        /// The states of the keys seen so far, in `Button.allCases` order.
        var values: LazyMapSequence<LazyFilterSequence<[ButtonState?]>, ButtonState> {
            slots.lazy.filter { $0 != nil }.map { $0! }
        }
    }
    var buttons = ButtonStates()

    public init(debounceMs: Int = 30) { debounceNs = UInt64(max(0, debounceMs)) * 1_000_000 }

    /// Feeds one edge (`pressed` = the button is now down). Returns the gestures it completes.
    public mutating func edge(_ b: Button, pressed: Bool, ns: UInt64) -> [Gesture] {
        var out = settle(b, at: ns)
        var s = buttons[b] ?? ButtonState()
        if let last = s.lastEdge, ns &- last < debounceNs {
            s.heldBack = s.down == pressed ? nil : (pressed, ns)
            buttons[b] = s
            return out
        }
        s.heldBack = nil
        buttons[b] = s
        guard s.down != pressed else { return out }
        out += accept(b, pressed: pressed, ns: ns)
        return out
    }

    /// Applies the level a bounce left (`ButtonState.heldBack`) once the debounce window after the
    /// last accepted edge has passed at `ns`, as an edge at the bounce's own time.
    mutating func settle(_ b: Button, at ns: UInt64) -> [Gesture] {
        guard var s = buttons[b], let held = s.heldBack, let last = s.lastEdge, Self.elapsed(since: last, at: ns) >= debounceNs else { return [] }
        s.heldBack = nil
        buttons[b] = s
        return s.down == held.pressed ? [] : accept(b, pressed: held.pressed, ns: held.ns)
    }

    /// A level change that is not a bounce: the gestures it completes.
    mutating func accept(_ b: Button, pressed: Bool, ns: UInt64) -> [Gesture] {
        var s = buttons[b] ?? ButtonState()
        s.lastEdge = ns
        s.down = pressed
        var out: [Gesture] = []
        if pressed {
            s.pressedAt = ns
            s.longReported = false
            s.inChord = false
            let other: Button? = b == .a ? .c : (b == .c ? .a : nil)
            if let o = other, var os = buttons[o], os.down, !os.inChord {
                os.inChord = true
                s.inChord = true
                buttons[o] = os
                out.append(.chordAC)
            } else if let r = s.releasedAt, ns &- r <= doubleTapNs {
                out.append(.doubleTap(b))
                s.releasedAt = nil
            } else {
                out.append(.tap(b))
            }
        } else {
            s.releasedAt = (s.longReported || s.inChord) ? nil : ns
            if b != .b { chordHeldReported = false }
        }
        buttons[b] = s
        return out
    }

    /// Reports long presses that have now been held long enough. Applies first the levels bounces left whose debounce window has passed.
    public mutating func poll(ns: UInt64) -> [Gesture] {
        var out: [Gesture] = []
        for (i, b) in ButtonStates.order.enumerated() where buttons.slots[i]?.heldBack != nil { out += settle(b, at: ns) }
        if let since = chordSince, !chordHeldReported, Self.elapsed(since: since, at: ns) >= chordHoldNs {
            chordHeldReported = true
            out.append(.chordHeld)
        }
        for (i, b) in ButtonStates.order.enumerated() {
            guard var s = buttons.slots[i], s.down, !s.longReported, !s.inChord, Self.elapsed(since: s.pressedAt, at: ns) >= longPressNs else { continue }
            s.longReported = true
            buttons.slots[i] = s
            out.append(.longPress(b))
        }
        return out
    }

    /// The time from `start` to `ns`; 0 when `ns` is earlier. A loop judges as of when it read its inputs
    /// (`DeviceLoop.pollGestures(edgesReadAt:)`), and an edge the kernel stamped after that moment but
    /// before the read can be among them: without this, the wrapped difference read as a key held for
    /// centuries, and the tap just read became a long press at once (seen in the kernel loop, a guest
    /// stalled between the clock read and the edge read: docs/kernel-loop.md).
    static func elapsed(since start: UInt64, at ns: UInt64) -> UInt64 { ns >= start ? ns - start : 0 }

    /// When a tap of `b` is known to stay a tap (monotonic ns): the key is up and its double-tap
    /// window has passed without a second press. nil while the key is down (a long press may
    /// still come). A navigator's waiting tap (`Navigator.pendingTap`) acts then.
    public func tapSettles(_ b: Button) -> UInt64? {
        guard let s = buttons[b] else { return 0 }
        if s.down || s.heldBack != nil { return nil }
        return s.releasedAt.map { $0 &+ doubleTapNs &+ 1 } ?? 0
    }

    /// When both A and C have been down together since (the later press), if they are.
    var chordSince: UInt64? {
        guard let a = buttons[.a], let c = buttons[.c], a.down, c.down, a.inChord, c.inChord else { return nil }
        return max(a.pressedAt, c.pressedAt)
    }

    /// When `poll` next needs to run (a long press or the 3-second chord may become due, or a level
    /// a bounce left be applied).
    public func nextDeadline() -> UInt64? {
        var best: UInt64?
        func consider(_ d: UInt64) { best = min(best ?? d, d) }
        for case let s? in buttons.slots where s.down && !s.longReported && !s.inChord { consider(s.pressedAt + longPressNs) }
        for case let s? in buttons.slots where s.heldBack != nil { if let last = s.lastEdge { consider(last &+ debounceNs) } }
        if let since = chordSince, !chordHeldReported { consider(since + chordHoldNs) }
        return best
    }
}
