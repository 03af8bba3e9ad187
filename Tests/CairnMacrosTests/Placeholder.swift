@testable import CairnMacros
import Testing
