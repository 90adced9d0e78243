/// Any ATT PDU this codec knows, decoded by its opcode. `ATTPDU.decode` is the one entry point a
/// server or client feeds received bytes to: it throws `ATTDecodeError` for anything else and
/// never traps (the fuzz target in Fuzz/ATTFuzz drives it with random bytes).
public enum ATTPDU: Sendable, Equatable {
    case errorResponse(ATTErrorResponse)
    case exchangeMTURequest(ATTExchangeMTURequest)
    case exchangeMTUResponse(ATTExchangeMTUResponse)
    case findInformationRequest(ATTFindInformationRequest)
    case findInformationResponse(ATTFindInformationResponse)
    case findByTypeValueRequest(ATTFindByTypeValueRequest)
    case findByTypeValueResponse(ATTFindByTypeValueResponse)
    case readByTypeRequest(ATTReadByTypeRequest)
    case readByTypeResponse(ATTReadByTypeResponse)
    case readRequest(ATTReadRequest)
    case readResponse(ATTReadResponse)
    case readBlobRequest(ATTReadBlobRequest)
    case readBlobResponse(ATTReadBlobResponse)
    case readByGroupTypeRequest(ATTReadByGroupTypeRequest)
    case readByGroupTypeResponse(ATTReadByGroupTypeResponse)
    case writeRequest(ATTWriteRequest)
    case writeResponse(ATTWriteResponse)
    case writeCommand(ATTWriteCommand)
    case prepareWriteRequest(ATTPrepareWriteRequest)
    case prepareWriteResponse(ATTPrepareWriteResponse)
    case executeWriteRequest(ATTExecuteWriteRequest)
    case executeWriteResponse(ATTExecuteWriteResponse)
    case handleValueNotification(ATTHandleValueNotification)
    case handleValueIndication(ATTHandleValueIndication)
    case handleValueConfirmation(ATTHandleValueConfirmation)

    public static func decode(_ bytes: [UInt8]) throws(ATTDecodeError) -> ATTPDU {
        guard let first = bytes.first else { throw .empty }
        guard let op = ATTOpcode(rawValue: first) else { throw .unknownOpcode(first) }
        switch op {
        case .errorResponse: return .errorResponse(try .init(decoding: bytes))
        case .exchangeMTURequest: return .exchangeMTURequest(try .init(decoding: bytes))
        case .exchangeMTUResponse: return .exchangeMTUResponse(try .init(decoding: bytes))
        case .findInformationRequest: return .findInformationRequest(try .init(decoding: bytes))
        case .findInformationResponse: return .findInformationResponse(try .init(decoding: bytes))
        case .findByTypeValueRequest: return .findByTypeValueRequest(try .init(decoding: bytes))
        case .findByTypeValueResponse: return .findByTypeValueResponse(try .init(decoding: bytes))
        case .readByTypeRequest: return .readByTypeRequest(try .init(decoding: bytes))
        case .readByTypeResponse: return .readByTypeResponse(try .init(decoding: bytes))
        case .readRequest: return .readRequest(try .init(decoding: bytes))
        case .readResponse: return .readResponse(try .init(decoding: bytes))
        case .readBlobRequest: return .readBlobRequest(try .init(decoding: bytes))
        case .readBlobResponse: return .readBlobResponse(try .init(decoding: bytes))
        case .readByGroupTypeRequest: return .readByGroupTypeRequest(try .init(decoding: bytes))
        case .readByGroupTypeResponse: return .readByGroupTypeResponse(try .init(decoding: bytes))
        case .writeRequest: return .writeRequest(try .init(decoding: bytes))
        case .writeResponse: return .writeResponse(try .init(decoding: bytes))
        case .writeCommand: return .writeCommand(try .init(decoding: bytes))
        case .prepareWriteRequest: return .prepareWriteRequest(try .init(decoding: bytes))
        case .prepareWriteResponse: return .prepareWriteResponse(try .init(decoding: bytes))
        case .executeWriteRequest: return .executeWriteRequest(try .init(decoding: bytes))
        case .executeWriteResponse: return .executeWriteResponse(try .init(decoding: bytes))
        case .handleValueNotification: return .handleValueNotification(try .init(decoding: bytes))
        case .handleValueIndication: return .handleValueIndication(try .init(decoding: bytes))
        case .handleValueConfirmation: return .handleValueConfirmation(try .init(decoding: bytes))
        }
    }

    /// The PDU's bytes.
    public var bytes: [UInt8] {
        switch self {
        case .errorResponse(let p): p.bytes
        case .exchangeMTURequest(let p): p.bytes
        case .exchangeMTUResponse(let p): p.bytes
        case .findInformationRequest(let p): p.bytes
        case .findInformationResponse(let p): p.bytes
        case .findByTypeValueRequest(let p): p.bytes
        case .findByTypeValueResponse(let p): p.bytes
        case .readByTypeRequest(let p): p.bytes
        case .readByTypeResponse(let p): p.bytes
        case .readRequest(let p): p.bytes
        case .readResponse(let p): p.bytes
        case .readBlobRequest(let p): p.bytes
        case .readBlobResponse(let p): p.bytes
        case .readByGroupTypeRequest(let p): p.bytes
        case .readByGroupTypeResponse(let p): p.bytes
        case .writeRequest(let p): p.bytes
        case .writeResponse(let p): p.bytes
        case .writeCommand(let p): p.bytes
        case .prepareWriteRequest(let p): p.bytes
        case .prepareWriteResponse(let p): p.bytes
        case .executeWriteRequest(let p): p.bytes
        case .executeWriteResponse(let p): p.bytes
        case .handleValueNotification(let p): p.bytes
        case .handleValueIndication(let p): p.bytes
        case .handleValueConfirmation(let p): p.bytes
        }
    }
}
