import Foundation

/// The repository's root folder (tests that read the sources and docs themselves start here).
public let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().standardized

/// Every text file under `folder` (a folder or a file, relative to the repository root) whose name
/// ends in one of `extensions` (empty: any), as (path relative to the root, text), sorted by path.
/// Hidden folders, `.build`, `__pycache__` and files that are not UTF-8 text are skipped.
public func repositoryFiles(under folder: String, extensions: Set<String>) throws -> [(path: String, text: String)] {
    let base = repositoryRoot.appendingPathComponent(folder)
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: base.path, isDirectory: &isDir) else { return [] }
    if !isDir.boolValue {
        guard extensions.isEmpty || extensions.contains(base.pathExtension),
              let text = try? String(contentsOf: base, encoding: .utf8) else { return [] }
        return [(folder, text)]
    }
    guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil,
                                                      options: [.skipsHiddenFiles]) else { return [] }
    var out: [(path: String, text: String)] = []
    let rootPath = repositoryRoot.path + "/"
    for case let url as URL in walker {
        if url.lastPathComponent == ".build" || url.lastPathComponent == "__pycache__" { walker.skipDescendants(); continue }
        guard extensions.isEmpty || extensions.contains(url.pathExtension) else { continue }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
        let path = url.standardized.path
        let relative = path.hasPrefix(rootPath) ? String(path.dropFirst(rootPath.count)) : path
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
        out.append((relative, text))
    }
    return out.sorted { $0.path < $1.path }
}
