import CairnTool
import Foundation

// `cairn`: the command-line tool; everything it does lives in CairnTool.
exit(CairnTool.main(Array(CommandLine.arguments.dropFirst())))
