// libFuzzer target for the scenario parser (tools/fuzz.sh scenario; docs/reliability.md). Built
// against PetSim compiled with -sanitize=fuzzer,address by SwiftPM. Input: a scenario file's bytes.
// Checks: parsing any bytes never traps; a refusal is a ScenarioError that names this file and a
// line inside it; parsing the same text twice gives the same steps (no hidden state).
import PetSim

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // Line ends as the parser reads them: LF, CRLF or a lone CR (Swift's `Character` holds "\r\n"
    // as one, so count scalars; a CRLF counted twice only loosens the upper bound).
    let lines = 1 + text.unicodeScalars.filter { $0 == "\n" || $0 == "\r" }.count
    do {
        let s = try ScenarioParser.parse(text, file: "fuzz.scenario")
        for step in s.steps where step.line < 1 || step.line > lines {
            fatalError("step at line \(step.line) of a \(lines)-line file")
        }
        guard let again = try? ScenarioParser.parse(text, file: "fuzz.scenario"),
              again.steps.map(\.step) == s.steps.map(\.step) else { fatalError("a second parse differs") }
    } catch {
        switch error {
        case let .syntax(file, line, _), let .failed(file, line, _, _):
            if file != "fuzz.scenario" || line < 0 || line > lines + 1 { fatalError("error names \(file):\(line) for a \(lines)-line file") }
        default: break   // a board file named by `start … board=` could not be read, or is wrong
        }
        _ = error.description
    }
    return 0
}
