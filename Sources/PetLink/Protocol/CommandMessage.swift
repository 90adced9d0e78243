/// `command` (phone → device, authenticated):
/// `{"type":"command","id":"c-17","name":"task.create","fields":{"title":"Water plants","due":"today 18:00"}}`.
/// `id` is the client's (1–48 ASCII letters, digits, `- _ . : #`): the same id from the same
/// phone is applied at most once (a repeat gets the stored reply with `duplicate: true`).
/// `name` is a domain command (docs/scenarios.md#commands, the scenario `send` names) or one of the
/// link's own (`export`, `time.set`, `state`, `wipe`); `fields` are strings (whole numbers and
/// booleans are accepted and read as their text).
public struct CommandMessage: Codable, Sendable, Equatable {
    public static let type = "command"
    public var type = CommandMessage.type
    public var id: String
    public var name: String
    public var fields: [String: JSONValue]?

    public init(id: String, name: String, fields: [String: JSONValue]? = nil) { self.id = id; self.name = name; self.fields = fields }
}
