// GIFTests.swift — our GIF89a encoder read back by an independent decoder (PIL, through the
// system /usr/bin/python3 with python3-pil): every frame's pixels, the frame count, the delays and
// the loop; the LZW stream across table resets; the quantiser; recording a scenario.

import Foundation
import XCTest
import TestSupport
import PetSim
import PetUI

final class GIFTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("petsim-gif-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    struct Decoded {
        var width = 0, height = 0
        var loop: Int?
        var durations: [Int] = []
        /// Each frame composited, as 8-bit RGB.
        var frames: [[UInt8]] = []
    }

    /// Decodes `gif` with PIL: size, loop, each frame's duration and its composited RGB pixels.
    func decode(_ gif: [UInt8]) throws -> Decoded {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            XCTFail("no /usr/bin/python3: run tools/setup-debian.sh"); return Decoded()
        }
        let file = dir.appendingPathComponent("t-\(UUID().uuidString).gif")
        try Data(gif).write(to: file)
        let script = """
        import sys
        from PIL import Image
        im = Image.open(sys.argv[1])
        print(im.size[0], im.size[1], im.info.get('loop', -1), im.n_frames)
        for k in range(im.n_frames):
            im.seek(k)
            open(sys.argv[1] + '.%d.rgb' % k, 'wb').write(im.convert('RGB').tobytes())
            print(im.info.get('duration', -1))
        """
        let r = try runTool(python, ["-c", script, file.path])
        let text = r.output
        if text.contains("No module named 'PIL'") { XCTFail("python3-pil is not installed: run tools/setup-debian.sh"); return Decoded() }
        guard r.status == 0 else { XCTFail("PIL could not read the GIF:\n\(text)"); return Decoded() }
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let head = lines[0].split(separator: " ").compactMap { Int($0) }
        var d = Decoded(width: head[0], height: head[1], loop: head[2] < 0 ? nil : head[2])
        for k in 0..<head[3] {
            d.durations.append(Int(lines[1 + k]) ?? -1)
            d.frames.append(Array(try Data(contentsOf: URL(fileURLWithPath: file.path + ".\(k).rgb"))))
        }
        return d
    }

    func rgb(_ pixels: [UInt16]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(pixels.count * 3)
        for p in pixels { let c = RGB565(raw: p); out += [c.r8, c.g8, c.b8] }
        return out
    }

    /// A deterministic pseudo-random sequence (xorshift).
    struct Noise {
        var s: UInt64
        mutating func next() -> UInt64 { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s }
    }

    func testFramesDelaysAndLoopReadBackExactly() throws {
        let w = 64, h = 48
        var canvas = Canvas(width: w, height: h, background: RGB565(hex: 0xF4EEDC))
        canvas.fillRect(x: 4, y: 4, w: 20, h: 10, color: RGB565(hex: 0x3A7D44))
        canvas.fillCircle(cx: 40, cy: 20, radius: 6, color: .black)
        canvas.line(x0: 0, y0: 47, x1: 63, y1: 10, color: RGB565(hex: 0xE8DE2A))
        var enc = GIFEncoder(width: w, height: h)
        var expected: [[UInt16]] = []
        enc.add(canvas, delayMs: 500); expected.append(canvas.pixels)
        canvas.fillRect(x: 40, y: 30, w: 5, h: 5, color: .red)            // a small change: a sub-rectangle frame
        enc.add(canvas, delayMs: 200); expected.append(canvas.pixels)
        enc.add(canvas, delayMs: 300)                                       // identical: lengthens the last frame
        canvas.setPixel(x: 0, y: 0, color: RGB565(hex: 0x123456))           // one new colour: a local palette
        canvas.setPixel(x: 63, y: 47, color: .blue)
        enc.add(canvas, delayMs: 1000); expected.append(canvas.pixels)
        XCTAssertEqual(enc.frameCount, 3)
        XCTAssertEqual(enc.delays, [50, 50, 100])

        let d = try decode(enc.finish())
        XCTAssertEqual(d.width, w)
        XCTAssertEqual(d.height, h)
        XCTAssertEqual(d.loop, 0, "loops forever")
        XCTAssertEqual(d.durations, [500, 500, 1000])
        XCTAssertEqual(d.frames.count, 3)
        for (k, frame) in d.frames.enumerated() where k < expected.count {
            XCTAssertEqual(frame, rgb(expected[k]), "frame \(k)")
        }
    }

    /// Noise with 256 colours over a large frame: the LZW table fills and is cleared many times.
    func testLZWAcrossManyTableResetsAndAllPaletteSizes() throws {
        var noise = Noise(s: 0x9E37_79B9_7F4A_7C15)
        var frames: [[UInt16]] = []
        for colours in [2, 3, 5, 16, 17, 200, 256] {
            let palette = (0..<colours).map { UInt16(truncatingIfNeeded: $0 &* 2654435761 >> 7) }
            frames.append((0..<(240 * 240)).map { _ in palette[Int(noise.next() % UInt64(colours))] })
        }
        var enc = GIFEncoder(width: 240, height: 240, loopCount: nil)
        for f in frames { enc.add(pixels: f, delayMs: 100) }
        let d = try decode(enc.finish())
        XCTAssertNil(d.loop, "no loop extension when loopCount is nil")
        XCTAssertEqual(d.frames.count, frames.count)
        for (k, frame) in d.frames.enumerated() where k < frames.count {
            XCTAssertTrue(frame == rgb(frames[k]), "frame \(k) differs")
        }
        // A single pixel and a single colour still make a valid file.
        var one = GIFEncoder(width: 1, height: 1)
        one.add(pixels: [0xFFFF], delayMs: 10)
        XCTAssertEqual(try decode(one.finish()).frames, [[255, 255, 255]])
    }

    /// More than 256 colours: the most frequent colours are kept exactly, the rest drawn nearest.
    func testQuantisesFramesWithManyColours() throws {
        var pixels: [UInt16] = []
        for y in 0..<64 { for x in 0..<64 { pixels.append(RGB565(r: UInt8(x * 4), g: UInt8(y * 4), b: 128).raw) } }
        for i in 0..<1000 { pixels[i] = 0x001F }   // a dominant colour
        var enc = GIFEncoder(width: 64, height: 64)
        enc.add(pixels: pixels, delayMs: 100)
        let d = try decode(enc.finish())
        guard let frame = d.frames.first else { return XCTFail("no frame") }
        let want = rgb(pixels)
        XCTAssertEqual(Array(frame[0..<3000]), Array(want[0..<3000]), "the dominant colour is exact")
        var worst = 0
        for i in 0..<want.count { worst = max(worst, abs(Int(frame[i]) - Int(want[i]))) }
        XCTAssertLessThanOrEqual(worst, 40, "every pixel is near its colour (about half a colour-cube step)")
    }

    /// A recorded scenario: a frame after every step and animation frames while time passes;
    /// the decoded frames are the device's canvases, with their delays.
    func testRecordingAScenarioMatchesTheDeviceFrames() throws {
        let text = """
        start 2026-03-02 08:00 zone=Europe/Berlin
        send pet.name name=Mochi
        send task.create task=plants title="Water the plants" due="today 12:00"
        expect coins == 0
        press A
        advance 2s
        hold B
        advance 3h
        """
        let scenario = try ScenarioParser.parse(text, file: "gif.scenario")
        var options = ScenarioPlayer.Options()
        options.maxFramesPerAdvance = 12
        // What the device showed, frame by frame, merged like the encoder merges identical frames.
        let player = ScenarioPlayer(options: options)
        var shown: [(pixels: [UInt16], ms: Int)] = []
        player.onFrame = { device, ms in
            if let last = shown.last, last.pixels == device.canvas.pixels { shown[shown.count - 1].ms += ms }
            else { shown.append((device.canvas.pixels, ms)) }
        }
        try player.play(scenario)
        XCTAssertTrue(player.skipped.isEmpty)

        let recording = try GIFRecording.record(scenario, options: options)
        XCTAssertEqual(recording.frames, shown.count)
        XCTAssertGreaterThan(recording.frames, 3)
        let d = try decode(recording.gif)
        XCTAssertEqual(d.frames.count, shown.count)
        XCTAssertEqual(d.durations, shown.map(\.ms))
        XCTAssertTrue(d.durations.contains(options.animationDelayMs), "animation frames while time passes")
        for (k, frame) in d.frames.enumerated() where k < shown.count {
            XCTAssertTrue(frame == rgb(shown[k].pixels), "frame \(k) differs from the canvas")
        }
    }
}
