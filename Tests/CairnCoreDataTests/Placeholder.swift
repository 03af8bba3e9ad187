import CairnCoreData
import Testing
