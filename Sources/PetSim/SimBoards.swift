import PetDevice

/// Finds the board the simulator runs on (`deskpet-sim --board`, a scenario's `start … board=`):
/// PetDevice's `BoardLookup` (a path to a board file, or a name in the board folders or among the
/// built-in boards, boards/sim-*.board), then the simulator's own check. docs/boards.md.
public enum SimBoards {
    /// The board `ref` names. A ref with a `/` or ending in `.board` is a path; a relative path is
    /// taken from `baseFile`'s folder when given (a scenario's board is found next to it).
    public static func load(_ ref: String, relativeTo baseFile: String? = nil) throws(ScenarioError) -> Board {
        let board: Board
        do { board = try BoardLookup.load(ref, relativeTo: baseFile) } catch {
            switch error {
            case .noSuchBoard:
                throw .io(path: ref, message: "no such board: give a path to a .board file or the name of one of "
                          + Board.builtInNames.joined(separator: ", ") + " (docs/boards.md)")
            case .unreadable(let e):
                throw .io(path: e.path, message: "cannot read the board file (missing, unreadable or larger than 64 KiB)")
            case .invalid(let e): throw .board(e)
            }
        }
        try checkSimulatable(board)
        return board
    }

    /// The simulator runs any board's display and keys (its buses and pins are not used), except
    /// a 3- or 4-button board whose file turns the A+C chord off: not simulated yet.
    static func checkSimulatable(_ board: Board) throws(ScenarioError) {
        if board.hasChord != board.layout.hasChord {
            throw .io(path: board.name, message: "the simulator cannot run a board with chord = no yet "
                      + "(its navigation would still offer the A+C factory reset)")
        }
    }
}

extension Scenario {
    /// This scenario on another board: its steps are checked against the board's keys (a press
    /// of a key the board lacks is an error naming the step's line).
    public func on(_ board: Board) throws(ScenarioError) -> Scenario {
        var s = self
        s.board = board
        s.display = board.profile
        s.buttons = board.layout
        s.debounceMs = board.debounceMs
        for located in steps {
            do throws(ScenarioParser.Problem) { try ScenarioParser.check(located.step, on: board.layout) } catch {
                throw .syntax(file: file, line: located.line, message: "\(error.message) — board \(board.name)")
            }
        }
        return s
    }
}
