/// One `<element>` of the legacy `<elements>` block: where Xcode's graph editor drew an entity.
/// Pure layout; kept so a model read and written back loses nothing.
public struct DiagramElement: Sendable, Equatable, Encodable {
    public var name: String
    public var positionX: Double
    public var positionY: Double
    public var width: Double
    public var height: Double

    public init(name: String, positionX: Double, positionY: Double, width: Double, height: Double) {
        self.name = name
        self.positionX = positionX
        self.positionY = positionY
        self.width = width
        self.height = height
    }
}
