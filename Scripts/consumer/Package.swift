// swift-tools-version:6.2
// A package that depends on Cairn by version, as a user's package would. Scripts/check-consumer.sh
// copies it beside a tagged clone of Cairn, points CAIRN_URL at that clone, builds and runs it.
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [
        .package(url: "CAIRN_URL", from: "CAIRN_VERSION"),
    ],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [
                .product(name: "Cairn", package: "Cairn"),
                .product(name: "CoreData", package: "Cairn"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
