import Foundation
import Testing

/// Issue 64, item 5: every `Type.member` the README, AGENTS.md and docs/ name in code exists in the tree (a type
/// declared or extended, and a member of that name declared), so a rename cannot leave the documents naming
/// something gone. Swift's own names (`Task.detached`) and files (`Checkmarks.csv`) are not the tree's to hold.
@Suite struct DocumentedNamesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The names the Swift files under `folders` declare: types (declared or extended) and members (functions,
    /// values, enum cases), read word by word.
    static func declarations(_ folders: [String]) -> (types: Set<String>, members: Set<String>) {
        var types = Set<String>(), members = Set<String>()
        for folder in folders {
            let walker = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                guard url.pathExtension == "swift", let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
                for line in text.split(separator: "\n") {
                    let words = line.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
                    // An enum's cases, one or several a line.
                    if words.first == "case" { members.formUnion(words.dropFirst()) }
                    for (index, word) in words.enumerated().dropLast() {
                        if ["struct", "enum", "class", "protocol", "actor", "typealias", "extension"].contains(word) { types.insert(words[index + 1]) }
                        if ["func", "var", "let", "case"].contains(word) { members.insert(words[index + 1]) }
                    }
                }
            }
        }
        return (types, members)
    }

    /// The `Type.member` names inside backquotes of `document`.
    static func names(in document: String) throws -> [(type: String, member: String)] {
        let quoted = try Regex("`([^`\\n]+)`")
        let named = try Regex("(?:^|[^\\w/.-])([A-Z]\\w+)\\.([a-z]\\w*)\\b")
        var names: [(type: String, member: String)] = []
        for match in document.matches(of: quoted) {
            guard let code = match.output[1].substring else { continue }
            for name in code.matches(of: named) {
                guard let type = name.output[1].substring, let member = name.output[2].substring else { continue }
                names.append((String(type), String(member)))
            }
        }
        return names
    }

    static let notTheTrees: Set<String> = ["Task.detached"]
    static let fileExtensions: Set<String> = ["csv", "json", "swift", "md", "db", "xml", "zip", "py", "sh", "service", "desktop", "tmp",
                                              "sqlite", "png", "html", "svg", "txt", "tsv", "jsonl"]

    @Test func everyTypeAndMemberTheDocumentsNameExists() throws {
        let declared = Self.declarations(["Sources", "Tests", "Benchmarks"])
        var documents = ["README.md", "AGENTS.md"]
        documents += (try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path))
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        var checked = 0
        for document in documents {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            for (type, member) in try Self.names(in: text)
            where !Self.fileExtensions.contains(member) && !Self.notTheTrees.contains("\(type).\(member)") {
                let (typeDeclared, memberDeclared) = (declared.types.contains(type), declared.members.contains(member))
                #expect(typeDeclared, "\(document) names \(type).\(member), but no type \(type) is declared")
                #expect(memberDeclared, "\(document) names \(type).\(member), but no member \(member) is declared")
                checked += 1
            }
        }
        #expect(checked > 20, "only \(checked) names were found: the documents were not read")
    }
}
