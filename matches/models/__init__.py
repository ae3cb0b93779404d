"""Models of the matches app, one module per room. Import every model here."""

from .chain import ResultChainEntry
from .event import Event, Registration, Stage, Union, UnionMember
from .fees import EntryFee, FeePayment
from .find import FloorPass, SearchTerm
from .floor import Announcement, RefereeCall, RefereeTable, RefereeZone, RoundClock
from .health import WorkerProbe
from .live import FeatureTable, LiveAction, LiveDeal, LiveNote
from .result import Confirmation, DealReport, PlayerAccount, RefereeLink
from .round import Deal, Match, MatchSide, Round, RoundLog, Table, TableSeat
from .sheet import SheetPhoto, StackSheet
from .signup import EntryLog, EntryRequest, PaymentWay, SignupSettings
from .staff import CheckInRound, EventStaff, StaffInvitation, StaffRole
from .standings import ComputationRun, DealTally, DerivedCheck, StandingsSnapshot

__all__ = [
    "EntryFee",
    "EntryLog",
    "EntryRequest",
    "FeePayment",
    "PaymentWay",
    "SignupSettings",
    "Announcement",
    "FloorPass",
    "SearchTerm",
    "RefereeCall",
    "RefereeTable",
    "RefereeZone",
    "RoundClock",
    "CheckInRound",
    "EventStaff",
    "StaffInvitation",
    "StaffRole",
    "ComputationRun",
    "DerivedCheck",
    "DealTally",
    "StandingsSnapshot",
    "Confirmation",
    "DealReport",
    "PlayerAccount",
    "RefereeLink",
    "ResultChainEntry",
    "Deal",
    "Event",
    "Match",
    "Registration",
    "Round",
    "MatchSide",
    "RoundLog",
    "Stage",
    "Table",
    "TableSeat",
    "Union",
    "UnionMember",
    "WorkerProbe",
    "SheetPhoto",
    "StackSheet",
    "FeatureTable",
    "LiveAction",
    "LiveDeal",
    "LiveNote",
]
