// libFuzzer target for the journal row decoder (tools/fuzz.sh journal; docs/reliability.md,
// docs/storage.md): the `payload` of an events row, read by JournalCodec.event as the device reads
// every row when it opens its journal. Built against PetDevice compiled with
// -sanitize=fuzzer,address by SwiftPM. Checks: decoding any bytes never traps; a refusal is
// AppError.journal naming the row's seq; a row that decodes is stored again (JournalCodec.row) as a
// payload that decodes to the same event. With FUZZ_FOLD=1 in the environment the decoded event is
// also folded into a pet's state (Engine.apply, as replay does) and time advanced a day: that finds
// the replay traps of issue 11 item 7 until the bounds work lands, so CI leaves it off for now.
import FoundationEssentials
import PetCore
import PetDevice
import PetStore

#if canImport(Glibc)
import Glibc
#endif

let base: Engine = {
    guard let (e, _) = try? Engine.create(at: Instant(1_774_000_000), zoneID: "Europe/Berlin", zones: ZoneDatabase().lookup) else {
        fatalError("no Europe/Berlin zone (tzdata)")
    }
    return e
}()
let clock = base.state.clock
let fold = getenv("FUZZ_FOLD").map { String(cString: $0) == "1" } ?? false

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let payload = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let row = EventRow(seq: 42, at: 1_774_000_000, day: 0, type: "fuzz", commandID: nil, coinsDelta: 0, xpDelta: 0,
                       reason: nil, payload: payload)
    let decoder = JSONDecoder()
    let event: Event
    do { event = try JournalCodec.event(row, decoder: decoder) } catch {
        guard case .journal(let seq, _) = error, seq == 42 else { fatalError("a refusal that does not name the row: \(error)") }
        return 0
    }
    let again: EventRow
    do { again = try JournalCodec.row(event, clock: clock) } catch { fatalError("a decoded \(event.kind.type) cannot be stored again: \(error)") }
    guard let back = try? JournalCodec.event(again, decoder: decoder) else { fatalError("a stored \(event.kind.type) does not decode") }
    if back.kind != event.kind { fatalError("a stored \(event.kind.type) decodes to something else") }
    if fold {
        var engine = base
        engine.apply(event)
        _ = engine.advance(to: Instant(1_774_000_000 + 86_400))
    }
    return 0
}
