extension Board {
    /// The board the simulator uses when none is named.
    public static let defaultSimulatorName = "sim-240x240"

    /// The names of the built-in boards (the simulator's, boards/sim-*.board).
    public static var builtInNames: [String] { builtInTexts.map(\.name) }

    /// The built-in board called `name`, parsed from its embedded text (nil: no such board).
    public static func builtIn(named name: String) throws(BoardError) -> Board? {
        guard let entry = builtInTexts.first(where: { $0.name == name }) else { return nil }
        return try BoardParser.parse(entry.text, file: "boards/\(name).board")
    }

    /// The simulator's default board (240×240 colour, three buttons).
    public static var defaultSimulator: Board {
        get throws(BoardError) {
            guard let b = try builtIn(named: defaultSimulatorName) else {
                throw BoardError(file: "boards/\(defaultSimulatorName).board", line: 1, key: "", kind: .unreadable,
                                 message: "the built-in default board is missing (run python3 tools/embed-boards.py)")
            }
            return b
        }
    }
}
