// ATT opcodes (Bluetooth Core, Vol 3, Part F, 3.4.8): the ones DeskPet's server and client speak.
// Bit 6 (0x40) marks a command (no response), bit 7 (0x80) a signed PDU.

/// An ATT PDU's first byte.
public enum ATTOpcode: UInt8, Sendable, CaseIterable {
    case errorResponse = 0x01
    case exchangeMTURequest = 0x02
    case exchangeMTUResponse = 0x03
    case findInformationRequest = 0x04
    case findInformationResponse = 0x05
    case findByTypeValueRequest = 0x06
    case findByTypeValueResponse = 0x07
    case readByTypeRequest = 0x08
    case readByTypeResponse = 0x09
    case readRequest = 0x0A
    case readResponse = 0x0B
    case readBlobRequest = 0x0C
    case readBlobResponse = 0x0D
    case readByGroupTypeRequest = 0x10
    case readByGroupTypeResponse = 0x11
    case writeRequest = 0x12
    case writeResponse = 0x13
    case prepareWriteRequest = 0x16
    case prepareWriteResponse = 0x17
    case executeWriteRequest = 0x18
    case executeWriteResponse = 0x19
    case handleValueNotification = 0x1B
    case handleValueIndication = 0x1D
    case handleValueConfirmation = 0x1E
    case writeCommand = 0x52

    /// A request a server must answer (with its response or an Error Response).
    public static func isRequest(_ raw: UInt8) -> Bool {
        switch raw {
        case 0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20: true
        default: raw & 0x40 == 0 && !isResponseOrServerPDU(raw)
        }
    }

    /// Commands (bit 6 set) never get a response, not even an error.
    public static func isCommand(_ raw: UInt8) -> Bool { raw & 0x40 != 0 }

    /// PDUs a server sends (responses, notifications, indications) or a client's confirmation.
    package static func isResponseOrServerPDU(_ raw: UInt8) -> Bool {
        switch raw {
        case 0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x1B, 0x1D, 0x1E, 0x21, 0x23: true
        default: false
        }
    }
}
