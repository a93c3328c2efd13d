package domain

import "github.com/podiumhq/podium/libs/ids"

// Id prefixes of the resources registration owns.
const (
	OrderIDPrefix        = "ord_"
	RegistrationIDPrefix = "reg_"
	AthleteIDPrefix      = "ath_"
	TicketIDPrefix       = "tkt_"
	TestMailIDPrefix     = "tml_"
)

// NewTestMailID returns a new random id of a kept test mail.
func NewTestMailID() string { return ids.New(TestMailIDPrefix) }

// NewOrderID returns a new random order id.
func NewOrderID() string { return ids.New(OrderIDPrefix) }

// NewRegistrationID returns a new random registration id.
func NewRegistrationID() string { return ids.New(RegistrationIDPrefix) }

// NewAthleteID returns a new random athlete id.
func NewAthleteID() string { return ids.New(AthleteIDPrefix) }

// NewTicketID returns a new random ticket id.
func NewTicketID() string { return ids.New(TicketIDPrefix) }
