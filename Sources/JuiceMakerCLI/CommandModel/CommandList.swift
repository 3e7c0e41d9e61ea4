/// Every command, in the order help lists them.
enum Commands {
  static let all: [any Command.Type] = [
    InitCommand.self, ShopCommand.self, MenuCommand.self, StockCommand.self, OrderCommand.self,
    ReorderCommand.self, ReportCommand.self, HistoryCommand.self, BackupCommand.self,
    RestoreCommand.self, ValidateCommand.self,
    RushCommand.self,
    ServeCommand.self,
    PacksCommand.self,
    CompletionsCommand.self,
  ]
}
