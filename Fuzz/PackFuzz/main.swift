// libFuzzer target for course packs (tools/fuzz.sh pack; docs/reliability.md, docs/course-pack.md).
// Built against PetDevice compiled with -sanitize=fuzzer,address by SwiftPM. Input: a pack file's
// bytes. Checks: CoursePack.parse never traps; a refusal names the file; an accepted pack has weeks
// in ascending order from week 0, unique lesson ids, and an outline with one entry per lesson.
import PetCore
import PetDevice

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let pack: CoursePack
    do { pack = try CoursePack.parse(bytes, path: "fuzz.json") } catch {
        if !error.description.contains("fuzz.json") { fatalError("a refusal that does not name the file: \(error)") }
        return 0
    }
    guard let first = pack.weeks.first, first.week == 0 else { fatalError("accepted a pack without week 0 first") }
    for (a, b) in zip(pack.weeks, pack.weeks.dropFirst()) where a.week >= b.week { fatalError("accepted weeks out of order") }
    let lessons = pack.weeks.flatMap(\.lessons)
    if Set(lessons.map(\.id)).count != lessons.count { fatalError("accepted duplicate lesson ids") }
    if pack.outline.lessons.count != lessons.count { fatalError("the outline lost lessons") }
    return 0
}
