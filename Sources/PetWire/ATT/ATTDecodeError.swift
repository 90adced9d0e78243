/// Why bytes are not a valid ATT PDU. Every decoder throws one of these and nothing else; a
/// server answers a request it cannot decode with the `attError` code (commands are dropped).
public enum ATTDecodeError: Error, Equatable, Sendable {
    /// No bytes at all.
    case empty
    /// An opcode this codec does not know.
    case unknownOpcode(UInt8)
    /// Fewer bytes than the PDU's fixed part needs.
    case truncated(opcode: UInt8, needed: Int, got: Int)
    /// More bytes than the PDU allows (a fixed-size PDU with extra bytes, or over 517 bytes).
    case oversized(opcode: UInt8, limit: Int, got: Int)
    /// A field out of its range (a zero length, a reserved format or flag, an uneven list).
    case invalidField(opcode: UInt8, field: String)

    /// The opcode the bytes started with, if any.
    public var opcode: UInt8? {
        switch self {
        case .empty: nil
        case .unknownOpcode(let o): o
        case .truncated(let o, _, _), .oversized(let o, _, _), .invalidField(let o, _): o
        }
    }

    /// The ATT error a server answers with.
    public var attError: ATTErrorCode {
        if case .unknownOpcode = self { return .requestNotSupported }
        return .invalidPDU
    }
}

/// The largest ATT_MTU (Core 5.x: 517 bytes: a 512-byte attribute value plus the 5-byte header of
/// Prepare Write). No PDU is longer.
public let attMaximumMTU = 517
/// The LE default ATT_MTU before an exchange.
public let attDefaultMTU = 23
/// The longest attribute value (Core, Vol 3, Part F, 3.2.9).
public let attMaximumValueLength = 512
