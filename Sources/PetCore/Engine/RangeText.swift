/// How a validation message writes a range constant's bounds ("1–64"), so a message takes its
/// numbers from the constant the check uses and the two cannot drift apart.
extension ClosedRange where Bound: BinaryInteger {
    public var text: String { "\(lowerBound)–\(upperBound)" }
}
