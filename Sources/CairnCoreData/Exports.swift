@_exported import Cairn
