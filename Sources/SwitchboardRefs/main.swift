import ArgumentParser
import SwitchboardRefsCommand

// `switchboard-refs`: the command plugin's tool, the same command as `switchboard refs`.
RefsCommand.main()
