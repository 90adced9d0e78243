// ZoneRules+Codable.swift — zone rules as data in the journal and in snapshots, so that a replay
// never needs the system zone database (docs/storage.md, "Zone rules in the journal").

/// The exact contents of a `ZoneRules`: the transition table as it was read from TZif and the
/// POSIX footer rule as its source text. Decoding validates every index and order, so a damaged
/// payload is an error, never a trap; re-reading it gives rules equal to the ones written.
///
/// ```json
/// {"id": "Europe/Berlin",
///  "types": [{"offset": 3208, "dst": false, "abbr": "LMT"}, {"offset": 3600, "dst": false, "abbr": "CET"}, …],
///  "times": [-2422054408, …], "indices": [1, …],
///  "footer": "CET-1CEST,M3.5.0,M10.5.0/3"}
/// ```
extension ZoneRules: Codable {
    enum CodingKeys: String, CodingKey { case id, types, times, indices, footer }

    struct TypeRecord: Codable {
        var offset: Int
        var dst: Bool
        var abbr: String
    }

    /// Offsets outside this range are refused (RFC 8536 §3.2 allows −25 h + 1 s … +26 h − 1 s).
    static let offsetRange = -89_999...93_599

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .id)
        try c.encode(localTimeTypes.map { TypeRecord(offset: $0.utOffset, dst: $0.isDST, abbr: $0.abbreviation) },
                     forKey: .types)
        try c.encode(transitionTimes, forKey: .times)
        try c.encode(transitionTypeIndices, forKey: .indices)
        try c.encodeIfPresent(footer?.source, forKey: .footer)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func bad(_ key: CodingKeys, _ why: String) -> DecodingError {
            .dataCorruptedError(forKey: key, in: c, debugDescription: "zone rules: \(why)")
        }
        let id = try c.decode(String.self, forKey: .id)
        let records = try c.decode([TypeRecord].self, forKey: .types)
        guard !records.isEmpty, records.count <= 256 else { throw bad(.types, "need 1–256 local time types") }
        for (i, r) in records.enumerated() where !ZoneRules.offsetRange.contains(r.offset) {
            throw bad(.types, "type \(i) has an offset out of range")
        }
        let times = try c.decode([Int64].self, forKey: .times)
        let indices = try c.decode([Int].self, forKey: .indices)
        guard times.count == indices.count else { throw bad(.indices, "need one type index per transition time") }
        for i in times.indices.dropFirst() where times[i - 1] >= times[i] {
            throw bad(.times, "transition \(i) is not after the one before")
        }
        for (i, t) in indices.enumerated() where !records.indices.contains(t) {
            throw bad(.indices, "transition \(i) names a type that does not exist")
        }
        var footer: PosixTZ?
        if let text = try c.decodeIfPresent(String.self, forKey: .footer) {
            do { footer = try PosixTZ(parsing: text) } catch { throw bad(.footer, "\(error)") }
        }
        self.init(identifier: id, transitionTimes: times, transitionTypeIndices: indices,
                  localTimeTypes: records.map { LocalTimeType(utOffset: $0.offset, isDST: $0.dst, abbreviation: $0.abbr) },
                  footer: footer)
    }
}
