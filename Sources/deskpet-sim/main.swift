#if canImport(Glibc)
import Glibc
#endif
import PetSim

let usage = """
deskpet-sim: the DeskPet simulator — the device's own code on a virtual clock and a headless display.

Usage:
  deskpet-sim                       run the built-in demo (a few days with a new pet) and write its snapshots
  deskpet-sim run FILE...           run scenario files (sim/*.scenario); exits non-zero on the first failure
  deskpet-sim check FILE...         parse scenario files only (syntax errors name file and line)
  deskpet-sim demo --print          print the built-in demo scenario

Options:
  --out DIR       where snapshots and journals go (default: out); each scenario gets DIR/<name>/
  --in-memory     keep the journal in memory (faster; 'off' and 'restart' steps are refused)
  --verbose, -v   print every step as it runs
  --quiet, -q     print only failures
  --help, -h      this help

Scenario format: docs/scenarios.md. Snapshots are 240×240 PNG files of the display.
"""

var args = Array(CommandLine.arguments.dropFirst())
var options = ScenarioRunner.Options()
var positional: [String] = []
var printDemo = false
var i = 0
while i < args.count {
    let a = args[i]
    switch a {
    case "--help", "-h": print(usage); exit(0)
    case "--verbose", "-v": options.verbose = true
    case "--quiet", "-q": options.quiet = true
    case "--in-memory": options.inMemory = true
    case "--print": printDemo = true
    case "--out":
        guard i + 1 < args.count else { printError("deskpet-sim: --out needs a directory\n"); exit(2) }
        options.outDir = args[i + 1]; i += 1
    default:
        if a.hasPrefix("-") { printError("deskpet-sim: unknown option '\(a)' (see --help)\n"); exit(2) }
        positional.append(a)
    }
    i += 1
}

func emit(_ s: String) { print(s); flushOutput() }

let mode = positional.first ?? "demo"
let files = Array(positional.dropFirst())
do {
    switch mode {
    case "demo":
        if printDemo { print(Demo.text); exit(0) }
        let scenario = try ScenarioParser.parse(Demo.text, file: "<demo>", name: Demo.name)
        let summary = try ScenarioRunner(options: options, print: emit).run(scenario)
        if !options.quiet {
            emit("Snapshots: " + summary.snapshots.joined(separator: ", "))
            if let db = summary.database { emit("Journal:   \(db)  (open it with: sqlite3 \(db) 'SELECT * FROM ledger')") }
            emit("Next: deskpet-sim run sim/*.scenario   ·   deskpet-sim --help")
        }
    case "run", "check":
        guard !files.isEmpty else { printError("deskpet-sim: \(mode) needs scenario files (see --help)\n"); exit(2) }
        var parsed: [Scenario] = []
        for f in files { parsed.append(try ScenarioParser.parse(try readTextFile(f), file: f)) }
        if mode == "check" { emit("\(parsed.count) scenario(s) OK"); exit(0) }
        let runner = ScenarioRunner(options: options, print: emit)
        for s in parsed { _ = try runner.run(s) }
        if parsed.count > 1 && !options.quiet { emit("All \(parsed.count) scenarios passed.") }
    default:
        printError("deskpet-sim: unknown command '\(mode)' (see --help)\n"); exit(2)
    }
} catch {
    printError("FAILED \(error)")
    exit(1)
}
