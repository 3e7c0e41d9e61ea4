/// A juice on the menu: an identifier and a recipe.
///
/// The display name comes from the string catalog under the key `juice.<id>`.
public struct Juice: Hashable, Sendable, Identifiable {
  /// The juice's stable identifier, such as `strawberry-banana-juice`.
  public struct ID: Hashable, Sendable {
    /// The raw identifier as written in the pack.
    public let rawValue: String

    /// Creates an identifier from untrusted text, checking the id rule.
    ///
    /// An id is lowercase ASCII letters, digits and `-`, starts with a letter, and is at
    /// most `Fruit.maximumIDLength` bytes long. Every way into the package (packs,
    /// `Catalog(fruits:juices:)`, stores, storages) builds ids with this initializer, so
    /// an invalid id cannot exist.
    ///
    /// - Parameter text: The id, such as `strawberry-banana-juice`.
    /// - Throws: `IdentifierError` naming the rule the text breaks.
    public init(validating text: String) throws(IdentifierError) {
      try CatalogIdentifier.check(text)
      self.rawValue = text
    }
  }

  /// The juice's identifier.
  public let id: ID
  /// The fruits one juice takes, in the order the pack lists them.
  public let ingredients: [Ingredient]
  /// What one juice costs, in its pack's currency; `nil` when the pack gives no price.
  public let price: Money?
  /// Where the juice sits in the catalog that loaded it, for constant-time lookup.
  @usableFromInline package let position: Handle?

  /// Creates a juice that belongs to no catalog.
  ///
  /// - Parameters:
  ///   - id: The juice's identifier.
  ///   - ingredients: The recipe, in display order.
  ///   - price: What one juice costs; `nil` for none.
  public init(id: ID, ingredients: [Ingredient], price: Money? = nil) {
    self.init(id: id, ingredients: ingredients, price: price, position: nil)
  }

  init(id: ID, ingredients: [Ingredient], price: Money?, position: Handle?) {
    self.id = id
    self.ingredients = ingredients
    self.price = price
    self.position = position
  }

  public static func == (lhs: Juice, rhs: Juice) -> Bool {
    lhs.id == rhs.id && lhs.ingredients == rhs.ingredients && lhs.price == rhs.price
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(ingredients)
    hasher.combine(price)
  }
}

extension Juice {
  /// A juice of one catalog, as two integers: what a shop's order path takes.
  ///
  /// A handle holds no reference, so copying one, storing many in an array or
  /// passing one between threads costs no reference counting, where copying a
  /// `Juice` retains and releases its id and recipe. Get one from `Juice.handle` or
  /// `Catalog.handle(of:)`; it is valid with shops of the catalog that made it.
  ///
  /// ```swift
  /// let handle = try #require(catalog.handle(of: "mango-juice"))
  /// try shop.make(handle)
  /// ```
  public struct Handle: Hashable, Sendable, BitwiseCopyable {
    /// The serial number of the catalog the juice belongs to.
    @usableFromInline package let catalog: Int
    /// The juice's position in that catalog's `juices`.
    @usableFromInline package let index: Int

    @usableFromInline
    init(catalog: Int, index: Int) {
      self.catalog = catalog
      self.index = index
    }
  }

  /// The juice's handle, when the juice came from a catalog; `nil` for one made with
  /// `init(id:ingredients:)`.
  public var handle: Handle? { position }
}

extension Juice.Handle: CustomStringConvertible {
  public var description: String { "juice #\(index + 1) of catalog #\(catalog)" }
}

// MARK: - Juice.ID conformances

extension Juice.ID: ExpressibleByStringLiteral {
  /// Creates an id from a literal in source code.
  ///
  /// - Precondition: The literal follows the id rule of `init(validating:)`; text
  ///   from outside the program goes through `init(validating:)` instead.
  public init(stringLiteral value: String) {
    do {
      try self.init(validating: value)
    } catch {
      preconditionFailure("invalid juice id literal: \(error)")
    }
  }
}

extension Juice.ID: CustomStringConvertible {
  public var description: String { rawValue }
}

extension Juice.ID: Comparable {
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Juice.ID: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    do {
      try self.init(validating: try container.decode(String.self))
    } catch let error as IdentifierError {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
