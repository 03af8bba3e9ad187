import CairnQuery
import Testing
