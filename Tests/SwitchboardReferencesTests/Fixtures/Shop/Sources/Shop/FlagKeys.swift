import Switchboard

let newFlow = FlagKey("shop.new_flow", default: false)
let sections = FlagKey<[String]>("shop.sections", default: [])
let discount = Switchboard.FlagKey("shop.discont", default: 0.0)
