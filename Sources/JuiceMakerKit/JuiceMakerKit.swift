// The product users import: the catalog, the localization runtime, and the stock, as one.
@_exported public import JuiceMakerCatalog
@_exported public import JuiceMakerLocalization
@_exported public import JuiceMakerStock
