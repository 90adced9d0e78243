import Foundation
import XCTest
import PetCore
import PetDevice
import PetLink
import TestSupport

/// The protocol's error codes are written once (Sources/PetCore/Engine/ErrorCode.swift); everything
/// else names the constants, so a program on either side of the link matches on them.
final class ErrorCodeTests: XCTestCase {
    static let definition = "Sources/PetCore/Engine/ErrorCode.swift"

    /// No quoted error code anywhere in Sources outside the definition (comments aside). A code
    /// typed by hand would drift from the constant the other side matches on.
    func testNoErrorCodeIsWrittenOutsideItsDefinition() throws {
        let files = try repositoryFiles(under: "Sources", extensions: ["swift"])
        XCTAssertGreaterThan(files.count, 100, "the scan found the sources")
        XCTAssertTrue(files.contains { $0.path == Self.definition }, "the definition file is where the test looks")
        var found: [String] = []
        for (path, text) in files where path != Self.definition {
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.drop { $0 == " " }
                if code.hasPrefix("//") { continue }
                for c in ErrorCode.all where line.contains("\"\(c)\"") {
                    // The frame codec's fallback reply compiles without PetCore (the frame fuzzer);
                    // testTheUnencodableFallbackCarriesTheInternalCode ties it to the constant.
                    if path == "Sources/PetLink/Protocol/Message.swift" && c == ErrorCode.internalError
                        && line.contains("static let unencodable") { continue }
                    found.append("\(path):\(n + 1): \"\(c)\"")
                }
            }
        }
        XCTAssertEqual(found, [], "write ErrorCode.x instead of the string")
    }

    /// The scan above really catches a hand-written code (it is not vacuous).
    func testTheScanWouldCatchALiteral() {
        let line = #"return reply(c, ErrorMessage(code: "wrong_code", message: "no"))"#
        XCTAssertTrue(ErrorCode.all.contains { line.contains("\"\($0)\"") })
    }

    func testEveryCodeIsDistinctAndWireShaped() {
        XCTAssertEqual(Set(ErrorCode.all).count, ErrorCode.all.count, "a code is listed twice or two constants share a string")
        for c in ErrorCode.all {
            XCTAssertFalse(c.isEmpty)
            XCTAssertTrue(c.allSatisfy { ($0 >= "a" && $0 <= "z") || $0 == "_" }, "\(c): lower-case and _ only")
        }
    }

    /// `DomainError.code` gives exactly the domain list, case for case.
    func testDomainErrorsUseTheDomainCodes() {
        let samples: [DomainError] = [
            .invalidField(field: "f", reason: "r"), .missingField(field: "f"), .notFound(kind: "task", id: "x"),
            .alreadyExists(kind: "task", id: "x"), .invalidState(kind: "task", id: "x", reason: "r"),
            .insufficientCoins(needed: 2, balance: 1), .limitReached(what: "w", limit: 1),
            .rateLimited(action: "a", retryAfterSeconds: 1), .unknownCommand(name: "n"), .unknownTimeZone(id: "z"),
        ]
        XCTAssertEqual(samples.map(\.code), ErrorCode.domain)
        XCTAssertEqual(AppError.domain(.missingField(field: "f")).code, ErrorCode.missingField)
    }

    /// A refusal that is final leaves the offline queue; a journal failure or a timeout does not.
    func testFinalCodes() {
        for c in ErrorCode.domain { XCTAssertTrue(LinkClientError.domainCodes.contains(c), c) }
        for c in [ErrorCode.journal, ErrorCode.timeout, ErrorCode.overloaded, ErrorCode.internalError, ErrorCode.tooManyClients] {
            XCTAssertFalse(ErrorCode.final.contains(c), c)
        }
    }

    func testTheUnencodableFallbackCarriesTheInternalCode() throws {
        let object = try JSONSerialization.jsonObject(with: Data(MessageEncoder.unencodable)) as? [String: Any]
        XCTAssertEqual(object?["code"] as? String, ErrorCode.internalError)
        XCTAssertEqual(object?["type"] as? String, ErrorMessage.type)
    }
}
