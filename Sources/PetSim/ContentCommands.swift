import PetCore
import PetDevice

/// Commands whose fields name a content file the device loads before building the command (PetCore
/// reads no files). The scenario runner asks here first, then `CommandParser`.
public enum ContentCommands {
    /// The action for `name` when it loads content, or nil (a plain command for `CommandParser`).
    /// `course.start pack=PATH`: the pack is read and checked, and its outline goes into the command
    /// (and so into `course.started`). A bad pack is refused as `invalid_field` on `pack`.
    public static func action(name: String, fields: [String: String]) throws(AppError) -> Action? {
        guard name == "course.start", let path = fields["pack"] else { return nil }
        for key in fields.keys.sorted() where key != "pack" {
            throw .domain(.invalidField(field: key, reason: "is not a field of course.start with pack= (fields: pack)"))
        }
        do {
            return .habit(.startCourse(try CoursePack.load(path: path).outline))
        } catch {
            throw .domain(.invalidField(field: "pack", reason: error.description))
        }
    }
}
