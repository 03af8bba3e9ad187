import Cairn
import Testing
