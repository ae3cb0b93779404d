"""Names vulture (`make lint`, [tool.vulture] in pyproject.toml) cannot see used, because
Django, DRF, drf-spectacular, pytest or a template reaches them by a string, a hook's name or
a signature. Each line says who reaches it. Anything else vulture reports is dead: remove it.
Never imported; vulture reads the names below as uses."""

# --- named by a dotted path in settings or a registry ------------------------------------------
MaskRefereeTokens  # LOGGING's filters (settings.py)
_.msg  # the LogRecord's message, rewritten by MaskRefereeTokens
DatabaseUnavailableMiddleware  # MIDDLEWARE
MirrorGuardMiddleware  # MIDDLEWARE (hall/guard.py)
LeanPathMiddleware  # MIDDLEWARE (gouji_tournament/lean.py)
is_async  # BaseHandler.load_middleware's signature, kept by the lean path's handler
CappedUploadHandler  # FILE_UPLOAD_HANDLERS
_.receive_data_chunk  # Django's upload handler hooks
_.file_complete
LockoutModelBackend  # AUTHENTICATION_BACKENDS
api_exception_handler  # REST_FRAMEWORK["EXCEPTION_HANDLER"]
add_error_responses  # SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]
generator  # ... its signature
RefereeLinkScheme  # drf-spectacular registers an extension by subclassing
_.target_class
_.get_security_definition
auto_schema
_.authenticate_header  # DRF asks an authentication class for its 401 header
GiogAdapter  # matches/kernel/games/registry.py, by dotted path
HighCardAdapter  # tests/games/test_third_game.py registers it by dotted path
StartElementHandler  # expat's callback (matches/events/importing.py)
attributes
_.stealth_options  # a management command's options call_command may pass
_.run_settle  # the gouji management command: `run_<command>` looked up by name
_.run_selfplay

# --- read by a template ------------------------------------------------------------------------
_.last_seen  # hall.status.MirrorLag: templates/hallbox/_lag.html
_.private_token_digest  # a digest column: looked up by keyword (filter(private_token_digest=...))
_.seed_a  # templates/bracket/_bracket.html
_.seed_b
_.tied
_.name_a
_.name_b
_.player_points_column  # templates/public/projector_standings.html
_.finish_text  # gouji/referee/deal_form.html
_.is_active  # a referee link's (manage/results/table.html)
_.diff_title  # manage/settings/_game_settings.html
_.no_changes
_.preset_rows

# --- form fields and options Django reads by name ----------------------------------------------
_.stage1_format  # the new-event wizard's fields (matches/events/forms.py)
_.stage1_rounds
_.stage2_format
_.stage2_qualifiers
_.stage2_rounds
_.player1  # the entry form's fields
_.player2
_.player3
_.new_club
_.help_texts
_.disabled
_.required
_.min_value

# --- model fields and choices: rows hold them (the admin, exports and the ORM by name) --------
abstract  # a model Meta option (matches/models/stamped.py: a base of rows, no table)
default_rules  # named in matches' migrations
validate_rules
default_place_points
validate_place_points
_.IGNORE
_.REJECTED
_.SYSTEM
_.SCORE
_.FINISH
_.BURN
_.TRIBUTE
_.OTHER
_.creation_token
_.registered_at
_.checked_in_at
_.withdrawn_at
_.state_changed_at
_.created_by
_.added_at
_.used_by
_.queued_at
_.city
_.id_number
_.contact
_.rated_at

# --- pytest: hooks' signatures, fixtures asked for by parameter, settings set by a test --------
segment
config
limits
low_limits
highcard
in_process_requests
_.broker_url
_.CACHE_URL
_.PASSWORD_HASHERS
_.raise_request_exception
_._make_organiser  # tests/personas.py: `_make_<role>` looked up by name
_._make_other_organiser
_._make_referee
_._make_referee_link
_._make_captain
_._make_captain_b
_._make_player
_._make_stranger
_._make_public

# --- hooks and template reads added with the hardening of text input and merges ---------------
CleanTextMiddleware  # MIDDLEWARE (gouji_tournament/text.py)
_.process_view  # Django's middleware hook
_._mutable  # QueryDict's flag, lifted to strip the values it holds
_.waiting_names  # seasons/templates/seasons/manage_players.html reads it
_.merged_number  # a merge request's columns: the record a merge deleted, kept by number
_.merged_name  # ... and by name, for its page
_._class  # Django's RedisCache reads it: the client class (gouji_tournament/cache.py)

# --- invitations that place their referee ---------------------------------------------
_.label_from_instance  # ModelChoiceField's hook: a zone offered as "东区 1-120"
_.field_order  # Django's form attribute: the role first
_.already  # the check-in desk's answer (matches/events/scan.py): manage/checkin/_scan_result.html reads it

# --- template reads of the merge's confirmation ---------------------------------------------
_.has_account  # seasons/templates/seasons/_merge_side.html reads it (seasons.identity.Side)
_.shown  # a merge request answered on the players page: the two records (manage_players.html)

# --- template reads -------------------------------------------------------------------
_.tables_final  # public/_standings_state.html and projector_standings.html read it

# --- the hall box's beat marks ------------------------------------------------------------------
_.lsn  # hall.BeatMark's column, written and read in SQL (hall/status.py)
# --- registration and fees -------------------------------------------------------------
_.to_refund  # manage/fees/treasurer.html reads it (events/fees.Totals)
_.updated_at  # when a registrant's request or the signup settings last changed (kept for the admin and the log)
_.updated_by  # who saved the signup settings last
_.input_formats  # Django's DateTimeField reads it (the datetime-local widget's format)
ALIPAY  # payment ways the organiser may tick (models/signup.PaymentWay)
BANK
_.uploaded_by  # who sent a score sheet's photo (the staff's table page shows it)
_.uploaded_at  # when (the staff's table page; the retention)
_.MEDIA_ROOT  # the tests keep their photos in a folder of their own
_.report_error  # why a feature table's deal has no report yet (templates/manage/features.html)
