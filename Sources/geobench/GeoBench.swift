import ArgumentParser

/// `geobench`: GeoAnchorKit's command-line tool. With no arguments it runs `report`, the
/// project's main job: every capability measured on the traces the repository ships.
@main
struct GeoBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geobench",
        abstract: "Measure GeoAnchorKit's geodesy, filtering, anchoring and tour capabilities.",
        discussion: """
        With no subcommand, runs `report`. CSV subcommands read a header row from --input FILE \
        (or stdin) and write CSV to --output FILE (or stdout). On invalid input they exit with \
        status 2 and print `FILE:LINE: message` on stderr.
        """,
        subcommands: GeoBench.allSubcommands,
        defaultSubcommand: ReportCommand.self
    )

    /// Runs the command; output written with `print` is checked at exit (``StdoutCheck``).
    static func main() {
        StdoutCheck.install()
        main(nil)
    }

    /// Every subcommand, in `--help` order. Add new ones here (one file per subcommand).
    static let allSubcommands: [any ParsableCommand.Type] = [
        ReportCommand.self,
        ENUCommand.self,
        ConvertCommand.self,
        AccuracyCommand.self,
        SimulateCommand.self,
        MagneticCommand.self,
        CalibrateCommand.self,
        TourCommand.self,
        TSPLIBCommand.self,
        GeodesicCommand.self,
        FilterCommand.self,
        GeoidCommand.self,
        CRSCommand.self,
        PerfCommand.self,
        RouteCommand.self,
        AnchorsCommand.self,
        AlignCommand.self,
        GnssCommand.self,
        RinexCommand.self,
    ]
}
