import Foundation

/// The repository's root folder (tests that read the sources and docs themselves start here).
public let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().standardized

/// Every file under `folder` (relative to the repository root) whose name ends in one of
/// `extensions`, as (path relative to the root, text), sorted by path. Hidden folders and `.build`
/// are skipped.
public func repositoryFiles(under folder: String, extensions: Set<String>) throws -> [(path: String, text: String)] {
    let base = repositoryRoot.appendingPathComponent(folder)
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: base.path, isDirectory: &isDir) else { return [] }
    if !isDir.boolValue {
        return extensions.contains(base.pathExtension) ? [(folder, try String(contentsOf: base, encoding: .utf8))] : []
    }
    guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil,
                                                      options: [.skipsHiddenFiles]) else { return [] }
    var out: [(path: String, text: String)] = []
    let rootPath = repositoryRoot.path + "/"
    for case let url as URL in walker {
        if url.lastPathComponent == ".build" { walker.skipDescendants(); continue }
        guard extensions.contains(url.pathExtension) else { continue }
        let path = url.standardized.path
        let relative = path.hasPrefix(rootPath) ? String(path.dropFirst(rootPath.count)) : path
        out.append((relative, try String(contentsOf: url, encoding: .utf8)))
    }
    return out.sorted { $0.path < $1.path }
}
