import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
import CLinux
import PetDevice
@testable import PetLinux

/// The GPIO uAPI v2 as PetLinux encodes and decodes it, against linux/gpio.h as Swift imports it
/// through CLinux: sizes, offsets and ioctl numbers; the bytes of a request for a given
/// configuration, read back through the header's own structure; events decoded with torn reads,
/// unknown ids and sequence gaps; and the button logic fed from decoded events.
final class GPIOUAPITests: XCTestCase {
    // MARK: - Layout against the header

    func testSizesAndOffsetsAreTheHeaders() {
        typealias S = GPIOUAPI.Size
        typealias O = GPIOUAPI.Offset
        XCTAssertEqual(MemoryLayout<gpiochip_info>.size, S.chipInfo)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_attribute>.size, S.lineAttribute)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_config_attribute>.size, S.configAttribute)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_config>.size, S.lineConfig)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_request>.size, S.lineRequest)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_values>.size, S.lineValues)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_info>.size, S.lineInfo)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_event>.size, S.lineEvent)

        XCTAssertEqual(MemoryLayout<gpio_v2_line_request>.offset(of: \.offsets), O.requestOffsets)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_request>.offset(of: \.consumer), O.requestConsumer)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_request>.offset(of: \.config), O.requestConfig)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_request>.offset(of: \.num_lines), O.requestNumLines)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_request>.offset(of: \.event_buffer_size), O.requestEventBufferSize)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_request>.offset(of: \.fd), O.requestFD)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_config>.offset(of: \.flags), O.configFlags)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_config>.offset(of: \.num_attrs), O.configNumAttrs)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_config>.offset(of: \.attrs), O.configAttrs)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_config_attribute>.offset(of: \.attr), O.attrID)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_config_attribute>.offset(of: \.mask), O.attrMask)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_attribute>.offset(of: \.id), O.attrID)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_values>.offset(of: \.bits), O.valuesBits)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_values>.offset(of: \.mask), O.valuesMask)
        XCTAssertEqual(MemoryLayout<gpiochip_info>.offset(of: \.name), O.chipName)
        XCTAssertEqual(MemoryLayout<gpiochip_info>.offset(of: \.label), O.chipLabel)
        XCTAssertEqual(MemoryLayout<gpiochip_info>.offset(of: \.lines), O.chipLines)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_info>.offset(of: \.name), O.infoName)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_info>.offset(of: \.consumer), O.infoConsumer)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_info>.offset(of: \.offset), O.infoOffset)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_info>.offset(of: \.num_attrs), O.infoNumAttrs)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_info>.offset(of: \.flags), O.infoFlags)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_info>.offset(of: \.attrs), O.infoAttrs)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_event>.offset(of: \.timestamp_ns), O.eventTimestamp)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_event>.offset(of: \.id), O.eventID)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_event>.offset(of: \.offset), O.eventOffset)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_event>.offset(of: \.seqno), O.eventSeqno)
        XCTAssertEqual(MemoryLayout<gpio_v2_line_event>.offset(of: \.line_seqno), O.eventLineSeqno)
    }

    func testIoctlNumbersAndConstantsAreTheHeaders() {
        XCTAssertEqual(IOCTL.gpioGetChipInfo, deskpet_gpio_get_chipinfo_ioctl())
        XCTAssertEqual(IOCTL.gpioV2GetLineInfo, deskpet_gpio_v2_get_lineinfo_ioctl())
        XCTAssertEqual(IOCTL.gpioV2GetLine, deskpet_gpio_v2_get_line_ioctl())
        XCTAssertEqual(IOCTL.gpioV2SetConfig, deskpet_gpio_v2_line_set_config_ioctl())
        XCTAssertEqual(IOCTL.gpioV2GetValues, deskpet_gpio_v2_line_get_values_ioctl())
        XCTAssertEqual(IOCTL.gpioV2SetValues, deskpet_gpio_v2_line_set_values_ioctl())
        XCTAssertEqual(IOCTL.gpioV2GetLine, 0xC250_B407, "_IOWR(0xB4, 0x07, 592 bytes)")
        XCTAssertEqual(GPIOUAPI.linesMax, Int(GPIO_V2_LINES_MAX))
        XCTAssertEqual(GPIOUAPI.attributesMax, Int(GPIO_V2_LINE_NUM_ATTRS_MAX))
        XCTAssertEqual(GPIOUAPI.nameSize, Int(GPIO_MAX_NAME_SIZE))
        XCTAssertEqual(GPIOUAPI.AttributeID.flags.rawValue, GPIO_V2_LINE_ATTR_ID_FLAGS.rawValue)
        XCTAssertEqual(GPIOUAPI.AttributeID.outputValues.rawValue, GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES.rawValue)
        XCTAssertEqual(GPIOUAPI.AttributeID.debounce.rawValue, GPIO_V2_LINE_ATTR_ID_DEBOUNCE.rawValue)
        XCTAssertEqual(GPIOUAPI.EventID.risingEdge.rawValue, GPIO_V2_LINE_EVENT_RISING_EDGE.rawValue)
        XCTAssertEqual(GPIOUAPI.EventID.fallingEdge.rawValue, GPIO_V2_LINE_EVENT_FALLING_EDGE.rawValue)
        let flags: [(GPIOLineFlags, gpio_v2_line_flag)] = [
            (.used, GPIO_V2_LINE_FLAG_USED), (.activeLow, GPIO_V2_LINE_FLAG_ACTIVE_LOW), (.input, GPIO_V2_LINE_FLAG_INPUT),
            (.output, GPIO_V2_LINE_FLAG_OUTPUT), (.edgeRising, GPIO_V2_LINE_FLAG_EDGE_RISING), (.edgeFalling, GPIO_V2_LINE_FLAG_EDGE_FALLING),
            (.openDrain, GPIO_V2_LINE_FLAG_OPEN_DRAIN), (.openSource, GPIO_V2_LINE_FLAG_OPEN_SOURCE),
            (.biasPullUp, GPIO_V2_LINE_FLAG_BIAS_PULL_UP), (.biasPullDown, GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN),
            (.biasDisabled, GPIO_V2_LINE_FLAG_BIAS_DISABLED), (.eventClockRealtime, GPIO_V2_LINE_FLAG_EVENT_CLOCK_REALTIME)
        ]
        for (mine, header) in flags { XCTAssertEqual(mine.rawValue, UInt64(header.rawValue)) }
    }

    // MARK: - Request encoding

    /// The header's structure, loaded from the encoded bytes.
    func asHeader(_ bytes: [UInt8]) -> gpio_v2_line_request {
        bytes.withUnsafeBytes { $0.loadUnaligned(as: gpio_v2_line_request.self) }
    }

    func testAButtonRequestsBytesAreWhatTheKernelReads() {
        let r = GPIOLineRequest(offsets: [17, 27, 22], consumer: "deskpet",
                                flags: [.input, .edgeRising, .edgeFalling, .biasPullUp, .activeLow], debounceUs: 30_000)
        let b = r.encoded()
        XCTAssertEqual(b.count, 592)
        // offsets[0..2], little-endian u32 (amd64 and arm64 are little-endian)
        XCTAssertEqual(Array(b[0..<12]), [17, 0, 0, 0, 27, 0, 0, 0, 22, 0, 0, 0])
        XCTAssertEqual(Array(b[12..<256]), [UInt8](repeating: 0, count: 244))
        XCTAssertEqual(Array(b[256..<264]), Array("deskpet".utf8) + [0])
        // config.flags = ACTIVE_LOW | INPUT | EDGE_RISING | EDGE_FALLING | BIAS_PULL_UP = 0x136
        XCTAssertEqual(Array(b[288..<296]), [0x36, 0x01, 0, 0, 0, 0, 0, 0])
        XCTAssertEqual(Array(b[296..<300]), [1, 0, 0, 0], "one attribute")
        // attrs[0]: id DEBOUNCE (3), padding, debounce_period_us 30000 (0x7530), mask 0b111
        XCTAssertEqual(Array(b[320..<344]), [3, 0, 0, 0, 0, 0, 0, 0, 0x30, 0x75, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0])
        XCTAssertEqual(Array(b[344..<560]), [UInt8](repeating: 0, count: 216), "no other attribute")
        XCTAssertEqual(Array(b[560..<564]), [3, 0, 0, 0], "num_lines")
        XCTAssertEqual(Array(b[564..<592]), [UInt8](repeating: 0, count: 28), "event_buffer_size 0 (the kernel's default), padding, fd")

        let h = asHeader(b)
        XCTAssertEqual(h.num_lines, 3)
        XCTAssertEqual([h.offsets.0, h.offsets.1, h.offsets.2, h.offsets.3], [17, 27, 22, 0])
        XCTAssertEqual(h.config.flags, r.flags.rawValue)
        XCTAssertEqual(h.config.num_attrs, 1)
        XCTAssertEqual(h.config.attrs.0.attr.id, GPIO_V2_LINE_ATTR_ID_DEBOUNCE.rawValue)
        XCTAssertEqual(h.config.attrs.0.attr.debounce_period_us, 30_000)
        XCTAssertEqual(h.config.attrs.0.mask, 0b111)
        let consumer = withUnsafeBytes(of: h.consumer) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        XCTAssertEqual(consumer, "deskpet")
    }

    func testAnOutputRequestCarriesItsInitialValuesAndNoDebounce() {
        let r = GPIOLineRequest(offsets: [13], consumer: "deskpet", flags: [.output, .activeLow], outputValues: 0)
        let h = asHeader(r.encoded())
        XCTAssertEqual(h.config.flags, GPIOLineFlags([.output, .activeLow]).rawValue)
        XCTAssertEqual(h.config.num_attrs, 1)
        XCTAssertEqual(h.config.attrs.0.attr.id, GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES.rawValue)
        XCTAssertEqual(h.config.attrs.0.attr.values, 0)
        XCTAssertEqual(h.config.attrs.0.mask, 1)
        // Values beyond the request's lines are cut; both attributes in order.
        let both = GPIOLineRequest(offsets: [1, 2], consumer: "x", flags: .output, outputValues: 0b1110)
        let hb = asHeader(both.encoded())
        XCTAssertEqual(hb.config.attrs.0.attr.values, 0b10)
        XCTAssertEqual(hb.config.attrs.0.mask, 0b11)
        XCTAssertNil(both.problem)
    }

    func testAConsumerIsCutTo31BytesAndAWholeRequestHas64Lines() {
        let long = String(repeating: "é", count: 40)   // 80 UTF-8 bytes
        let b = GPIOLineRequest(offsets: [0], consumer: long, flags: .input).encoded()
        XCTAssertEqual(Array(b[256..<287]), Array(Array(long.utf8).prefix(31)))
        XCTAssertEqual(b[287], 0, "always NUL-terminated")
        let all = GPIOLineRequest(offsets: (0..<64).map { UInt32($0) }, consumer: "", flags: .input)
        XCTAssertNil(all.problem)
        XCTAssertEqual(all.allLines, .max)
        let h = asHeader(all.encoded())
        XCTAssertEqual(h.num_lines, 64)
        XCTAssertEqual(h.offsets.63, 63)
    }

    func testRequestsTheKernelWouldRefuseAreNamed() {
        XCTAssertNotNil(GPIOLineRequest(offsets: [], consumer: "", flags: .input).problem)
        XCTAssertNotNil(GPIOLineRequest(offsets: (0..<65).map { UInt32($0) }, consumer: "", flags: .input).problem)
        XCTAssertNotNil(GPIOLineRequest(offsets: [3, 3], consumer: "", flags: .input).problem)
        XCTAssertNotNil(GPIOLineRequest(offsets: [3], consumer: "", flags: [.input, .output]).problem)
        XCTAssertNotNil(GPIOLineRequest(offsets: [3], consumer: "", flags: .input, outputValues: 1).problem)
        XCTAssertNotNil(GPIOLineRequest(offsets: [3], consumer: "", flags: .output, debounceUs: 10).problem)
    }

    func testTheDescriptorTheKernelWritesIsRead() {
        var b = GPIOLineRequest(offsets: [5], consumer: "deskpet", flags: .input).encoded()
        b[588] = 0x2A; b[589] = 0x01
        XCTAssertEqual(GPIOLineRequest.fd(in: b), 0x12A)
    }

    func testAKernelRefusingDebounceGetsTheRequestWithoutIt() {
        let r = GPIOLineRequest(offsets: [1], consumer: "deskpet", flags: [.input, .edgeRising, .edgeFalling], debounceUs: 5000)
        var asked: [UInt32] = []
        let refused = GPIOLineRequest.request(r) { req in
            asked.append(req.debounceUs)
            return req.debounceUs > 0 ? .failure(GPIOErrno(EINVAL)) : .success(9)
        }
        XCTAssertEqual(asked, [5000, 0])
        XCTAssertEqual(refused.result, .success(9))
        XCTAssertFalse(refused.kernelDebounce)

        asked = []
        let fine = GPIOLineRequest.request(r) { req in asked.append(req.debounceUs); return .success(4) }
        XCTAssertEqual(asked, [5000])
        XCTAssertTrue(fine.kernelDebounce)

        // A busy line is not retried; a second refusal reports the first error.
        asked = []
        let busy = GPIOLineRequest.request(r) { req in asked.append(req.debounceUs); return .failure(GPIOErrno(EBUSY)) }
        XCTAssertEqual(asked, [5000])
        XCTAssertEqual(busy.result, .failure(GPIOErrno(EBUSY)))
        asked = []
        let both = GPIOLineRequest.request(r) { req in asked.append(req.debounceUs); return .failure(GPIOErrno(req.debounceUs > 0 ? EINVAL : ENXIO)) }
        XCTAssertEqual(asked, [5000, 0])
        XCTAssertEqual(both.result, .failure(GPIOErrno(EINVAL)))
    }

    func testValuesChipAndLineInfoDecode() {
        let v = GPIOLineValues(bits: 0b101, mask: 0b111)
        XCTAssertEqual(v.encoded(), [5, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0])
        XCTAssertEqual(GPIOLineValues(v.encoded()), v)
        // GPIOLineHandle.set passes a (bits, mask) tuple: the same 16 bytes.
        var t: (bits: UInt64, mask: UInt64) = (0b101, 0b111)
        XCTAssertEqual(MemoryLayout<(bits: UInt64, mask: UInt64)>.size, GPIOUAPI.Size.lineValues)
        XCTAssertEqual(withUnsafeBytes(of: &t) { Array($0) }, v.encoded())

        var chip = [UInt8](repeating: 0, count: 68)
        for (i, c) in "gpiochip0".utf8.enumerated() { chip[i] = c }
        for (i, c) in "pinctrl-bcm2711".utf8.enumerated() { chip[32 + i] = c }
        chip[64] = 58
        XCTAssertEqual(GPIOChipInfo(chip), GPIOChipInfo(name: "gpiochip0", label: "pinctrl-bcm2711", lines: 58))

        // A line as the kernel reports it: GPIO17, held by deskpet, input with edges and a debounce attribute.
        var info = GPIOLineInfo.query(offset: 17)
        XCTAssertEqual(Array(info[64..<68]), [17, 0, 0, 0])
        for (i, c) in "GPIO17".utf8.enumerated() { info[i] = c }
        for (i, c) in "deskpet".utf8.enumerated() { info[32 + i] = c }
        info[68] = 1                                                       // num_attrs
        let flags = GPIOLineFlags([.used, .input, .edgeRising, .edgeFalling, .activeLow, .biasPullUp])
        UAPIBytes.put(flags.rawValue, &info, at: 72)
        info[80] = 3                                                       // attrs[0].id = DEBOUNCE
        UAPIBytes.put(UInt32(30_000), &info, at: 88)
        let l = GPIOLineInfo(info)
        XCTAssertEqual(l.name, "GPIO17")
        XCTAssertEqual(l.consumer, "deskpet")
        XCTAssertEqual(l.offset, 17)
        XCTAssertEqual(l.flags, flags)
        XCTAssertEqual(l.debounceUs, 30_000)
        // The same bytes through the header's structure.
        let h = info.withUnsafeBytes { $0.loadUnaligned(as: gpio_v2_line_info.self) }
        XCTAssertEqual(h.flags, flags.rawValue)
        XCTAssertEqual(h.attrs.0.debounce_period_us, 30_000)
    }

    // MARK: - Event decoding

    func event(_ ns: UInt64, _ rising: Bool, offset: UInt32, seq: UInt32, line: UInt32) -> GPIOLineEvent {
        GPIOLineEvent(timestampNs: ns, rising: rising, offset: offset, seqno: seq, lineSeqno: line)
    }

    func testAnEventsBytesAreTheHeaders() {
        let e = event(0x0102_0304_0506_0708, true, offset: 17, seq: 5, line: 3)
        let b = e.encoded()
        XCTAssertEqual(b.count, 48)
        XCTAssertEqual(Array(b[0..<24]), [8, 7, 6, 5, 4, 3, 2, 1, 1, 0, 0, 0, 17, 0, 0, 0, 5, 0, 0, 0, 3, 0, 0, 0])
        XCTAssertEqual(Array(b[24..<48]), [UInt8](repeating: 0, count: 24))
        let h = b.withUnsafeBytes { $0.loadUnaligned(as: gpio_v2_line_event.self) }
        XCTAssertEqual(h.timestamp_ns, 0x0102_0304_0506_0708)
        XCTAssertEqual(h.id, GPIO_V2_LINE_EVENT_RISING_EDGE.rawValue)
        XCTAssertEqual([h.offset, h.seqno, h.line_seqno], [17, 5, 3])
    }

    func testABufferOfEventsDecodesToEdgesWithTimestamps() {
        var d = GPIOEventDecoder()
        let events = [event(1_000, true, offset: 5, seq: 1, line: 1), event(2_000, true, offset: 6, seq: 2, line: 1),
                      event(3_500, false, offset: 5, seq: 3, line: 2)]
        let batch = d.decode(events.flatMap { $0.encoded() })
        XCTAssertEqual(batch.events.map(\.event), events)
        XCTAssertEqual(batch.events.map(\.missedBefore), [0, 0, 0])
        XCTAssertEqual(batch.tornBytes, 0)
        XCTAssertEqual(batch.missed, 0)
        XCTAssertEqual(d.decode([]), GPIOEventDecoder.Batch())
    }

    func testAShortReadDecodesTheWholeEventsAndCountsTheRest() {
        var d = GPIOEventDecoder()
        let bytes = event(10, true, offset: 1, seq: 1, line: 1).encoded() + event(20, false, offset: 1, seq: 2, line: 2).encoded()
        let batch = d.decode(bytes + [1, 2, 3, 4])
        XCTAssertEqual(batch.events.count, 2)
        XCTAssertEqual(batch.tornBytes, 4)
        let none = d.decode(bytes.prefix(47))
        XCTAssertEqual(none.events, [])
        XCTAssertEqual(none.tornBytes, 47)
        // The torn bytes are not carried into the next read: the next whole event decodes.
        XCTAssertEqual(d.decode(event(30, true, offset: 1, seq: 3, line: 3).encoded()).events.map(\.event.timestampNs), [30])
    }

    func testSequenceGapsCountTheEventsTheKernelDropped() {
        var d = GPIOEventDecoder()
        // Line 5 starts at 4 (three dropped before the first read); line 6 skips from 1 to 3; an
        // unknown id still counts in the sequence.
        var bytes = event(1, true, offset: 5, seq: 4, line: 4).encoded()
        bytes += event(2, true, offset: 6, seq: 5, line: 1).encoded()
        var unknown = event(3, true, offset: 6, seq: 6, line: 2).encoded()
        unknown[8] = 9
        bytes += unknown
        bytes += event(4, false, offset: 6, seq: 8, line: 4).encoded()
        bytes += event(5, false, offset: 5, seq: 9, line: 5).encoded()
        let batch = d.decode(bytes)
        XCTAssertEqual(batch.unknown, 1)
        XCTAssertEqual(batch.events.map(\.event.timestampNs), [1, 2, 4, 5])
        XCTAssertEqual(batch.events.map(\.missedBefore), [3, 0, 1, 0])
        XCTAssertEqual(batch.missed, 4)
        // Sequence numbers continue across reads, and wrap.
        XCTAssertEqual(d.decode(event(6, true, offset: 5, seq: 10, line: 6).encoded()).missed, 0)
        var w = GPIOEventDecoder()
        _ = w.decode(event(1, true, offset: 0, seq: 1, line: .max).encoded())
        XCTAssertEqual(w.decode(event(2, false, offset: 0, seq: 2, line: 0).encoded()).missed, 0)
    }

    // MARK: - Button logic on decoded events

    func testDecodedEventsBecomeButtonEdgesAndRepeatsAreDropped() {
        var d = GPIOEventDecoder()
        var logic = GPIOButtonLogic(buttons: [17: .a, 27: .b])
        let bytes = [event(100, true, offset: 17, seq: 1, line: 1),
                     event(150, true, offset: 17, seq: 2, line: 2),      // a bounce read as a second rise
                     event(200, true, offset: 27, seq: 3, line: 1),
                     event(250, true, offset: 99, seq: 4, line: 1),      // not a button
                     event(300, false, offset: 17, seq: 5, line: 3)].flatMap { $0.encoded() }
        let (edges, resync) = logic.edges(from: d.decode(bytes))
        XCTAssertEqual(edges, [InputEdge(.a, pressed: true, ns: 100), InputEdge(.b, pressed: true, ns: 200), InputEdge(.a, pressed: false, ns: 300)])
        XCTAssertFalse(resync)
        XCTAssertEqual(logic.repeated, 1)
        XCTAssertEqual(logic.pressed, [17: false, 27: true])
    }

    func testAReleaseFirstIsNotReported() {
        var d = GPIOEventDecoder()
        var logic = GPIOButtonLogic(buttons: [3: .c])
        let bytes = [event(10, false, offset: 3, seq: 1, line: 1), event(20, true, offset: 3, seq: 2, line: 2)].flatMap { $0.encoded() }
        XCTAssertEqual(logic.edges(from: d.decode(bytes)).edges, [InputEdge(.c, pressed: true, ns: 20)])
    }

    func testLostEventsAskForTheLevelsAndACorrectionBringsTheButtonThere() {
        var d = GPIOEventDecoder()
        var logic = GPIOButtonLogic(buttons: [17: .a, 27: .b])
        _ = logic.edges(from: d.decode(event(100, true, offset: 17, seq: 1, line: 1).encoded()))
        // The release (line 2) and a press (line 3) were dropped; the release at line 4 arrives.
        // That is a repeat of nothing (A is pressed, release reported) but the gap asks for a resync.
        let (edges, resync) = logic.edges(from: d.decode(event(400, false, offset: 17, seq: 4, line: 4).encoded()))
        XCTAssertEqual(edges, [InputEdge(.a, pressed: false, ns: 400)])
        XCTAssertTrue(resync)
        // A is in fact pressed again (a press after the release was dropped too): corrected, B unchanged.
        XCTAssertEqual(logic.resync(levels: [17: true, 27: false], ns: 999), [InputEdge(.a, pressed: true, ns: 999)])
        XCTAssertEqual(logic.resync(levels: [17: true, 27: false], ns: 1000), [], "nothing to correct twice")
    }

    // MARK: - At the seam: GPIOButtons on simulated lines

    func testButtonsAskTheKernelForOneDebouncedRequestPerChip() throws {
        let lines = SimulatedEdgeLines()
        let keys = try GPIOButtons(chip: "pet-buttons", buttons: [.a: .offset(4), .b: .offset(5), .c: .offset(6)], debounceMs: 30, lines: lines)
        XCTAssertTrue(keys.kernelDebounce)
        XCTAssertEqual(keys.lineDescriptors.count, 1, "one request for the chip's three lines")
        XCTAssertEqual(lines.requests, [GPIOLineRequest(offsets: [4, 5, 6], consumer: "deskpet",
                                                        flags: [.input, .edgeRising, .edgeFalling, .biasPullUp, .activeLow], debounceUs: 30_000)])
        XCTAssertThrowsError(try GPIOButtons(chip: "x", buttons: [.a: .offset(1)], debounceMs: 5000, lines: SimulatedEdgeLines()))
    }

    func testAKernelRefusingDebounceLeavesItToTheRecognizer() throws {
        let lines = SimulatedEdgeLines()
        lines.refusesDebounce = true
        let a = GPIOLineID.name("BTN_A")
        let keys = try GPIOButtons(chip: "pet-buttons", buttons: [.a: a], bias: .pullDown, activeLow: false, debounceMs: 30, lines: lines)
        XCTAssertFalse(keys.kernelDebounce)
        XCTAssertEqual(lines.requests.map(\.debounceUs), [30_000, 0])
        XCTAssertEqual(lines.requests.last?.flags, [.input, .edgeRising, .edgeFalling, .biasPullDown])
        let t = EventTime.now().monoNs
        lines.edge(a, physicallyHigh: true, ns: t)
        XCTAssertEqual(try keys.readEdges(), [InputEdge(.a, pressed: true, ns: t)])
    }

    func testEventsTheKernelDroppedAreCorrectedFromTheLevels() throws {
        let lines = SimulatedEdgeLines()
        let a = GPIOLineID.name("BTN_A"), b = GPIOLineID.name("BTN_B")
        let keys = try GPIOButtons(chip: "pet-buttons", buttons: [.a: a, .b: b], lines: lines)
        let t = EventTime.now().monoNs
        lines.edge(a, physicallyHigh: false, ns: t)            // A down
        lines.dropped(a, physicallyHigh: true)                 // its release and the next press lost
        lines.dropped(a, physicallyHigh: false)
        lines.edge(b, physicallyHigh: false, ns: t + 2)        // B down: no gap on B
        let before = EventTime.now().monoNs
        XCTAssertEqual(try keys.readEdges(), [InputEdge(.a, pressed: true, ns: t), InputEdge(.b, pressed: true, ns: t + 2)])
        XCTAssertEqual(keys.missedEvents, 0, "the gap shows with A's next event")
        lines.edge(a, physicallyHigh: true, ns: t + 5)         // A up: line sequence 4 after 1
        lines.dropped(a, physicallyHigh: false)                // A down again, lost: the level says so
        let edges = try keys.readEdges()
        XCTAssertEqual(edges.count, 2)
        XCTAssertEqual(edges.first, InputEdge(.a, pressed: false, ns: t + 5))
        XCTAssertEqual(edges.last?.button, .a)
        XCTAssertEqual(edges.last?.pressed, true, "corrected from the level read after the gap")
        XCTAssertGreaterThanOrEqual(edges.last?.ns ?? 0, before)
        XCTAssertEqual(keys.missedEvents, 2)
    }

    // MARK: - Chips on this machine

    func testChipDevicesAreFoundInNumberOrder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gpiochips-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for n in ["gpiochip10", "gpiochip2", "gpiochipX", "gpiochip", "gpiomem", "gpiochip0"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: "\(dir)/\(n)", contents: nil))
        }
        XCTAssertEqual(GPIOChip.paths(in: dir), ["\(dir)/gpiochip0", "\(dir)/gpiochip2", "\(dir)/gpiochip10"])
        XCTAssertEqual(GPIOChip.paths(in: dir + "/missing"), [])
    }

    func testAMissingChipIsNotFoundAndNamesTheLabelsThereAre() {
        XCTAssertThrowsError(try GPIOChip.open(label: "no-such-chip-here")) { e in
            guard let e = e as? HardwareError else { return XCTFail("\(e)") }
            XCTAssertEqual(e.device, "gpiochip no-such-chip-here")
            if GPIOChip.paths().isEmpty {
                XCTAssertEqual(e.kind, .notFound)
                XCTAssertEqual(e.errno, ENOENT)
                XCTAssertTrue(e.reason.contains("this machine has no GPIO chips"), e.reason)
                XCTAssertTrue(e.reason.contains("config.txt"), e.reason)
            } else {
                XCTAssertTrue([.notFound, .permissionDenied].contains(e.kind), "\(e)")
            }
        }
        XCTAssertThrowsError(try GPIOOutputLine(chip: "no-such-chip-here", line: .name("LED"))) { e in
            XCTAssertTrue("\(e)".contains("no-such-chip-here"), "\(e)")
        }
        XCTAssertThrowsError(try GPIOButtons(chip: nil, buttons: [.a: .offset(3)])) { e in
            XCTAssertEqual((e as? HardwareError)?.kind, .invalidArgument, "an offset needs a chip label: \(e)")
        }
        if GPIOChip.paths().isEmpty {
            XCTAssertThrowsError(try GPIOInputLine(chip: nil, line: .name("BUSY"))) { e in
                let h = e as? HardwareError
                XCTAssertEqual(h?.kind, .notFound)
                XCTAssertTrue(h?.reason.contains("no chip has a line named 'BUSY'") == true, "\(e)")
            }
        }
    }
}
