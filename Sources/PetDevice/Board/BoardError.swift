/// What is wrong with a board file, and where: the file, the line, the key (`display.size`,
/// `buttons.a`; empty for a line that is not `key = value`) and the problem.
/// Its description reads `boards/x.board:7: display.size: …`.
public struct BoardError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The file cannot be read, is too large, is not UTF-8 text or has a NUL byte.
        case unreadable
        /// A line that is neither a comment, a `[section]` nor `key = value`.
        case syntax
        case unknownSection
        case unknownKey
        case duplicateSection
        case duplicateKey
        /// Two keys name the same GPIO line (same chip and offset, or the same line name), or
        /// two keys the same input key code.
        case lineUsedTwice
        /// A GPIO line with no chip to find it on.
        case missingChip
        /// A display or buttons section without `bus`.
        case missingBus
        case missingKey
        case badNumber
        case badValue
        case outOfRange
        /// A display size that is zero, negative or more than the controller can drive.
        case impossibleSize
        case unknownController
        case badRotation
        /// A combination that cannot work (ssd1680 without busy, an I2C address on SPI, a
        /// joystick with a chord, a sim display with GPIO keys …).
        case impossibleCombination
        /// A display size the controller drives but the UI has no screen layouts for yet.
        case noLayout
    }

    public var file: String
    public var line: Int
    public var key: String
    public var kind: Kind
    public var message: String

    public init(file: String, line: Int, key: String, kind: Kind, message: String) {
        self.file = file; self.line = line; self.key = key; self.kind = kind; self.message = message
    }

    public var description: String {
        key.isEmpty ? "\(file):\(line): \(message)" : "\(file):\(line): \(key): \(message)"
    }
}
