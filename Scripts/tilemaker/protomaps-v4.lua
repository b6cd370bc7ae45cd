-- A tilemaker (2.x) profile writing a subset of the Protomaps basemap v4
-- schema (https://docs.protomaps.com/basemaps/layers) from OpenStreetMap, so
-- the Helsinki extract can be drawn by styles written for Protomaps tiles.
-- Written for URLSchemeKit (Scripts/make_helsinki_tiles.sh); our own work.
--
-- Layers and their `kind`s (with `kind_detail` the OSM value where Protomaps has one):
--   water      polygons: ocean (the sea from the `ocean` shapefile layer, natural=bay), lake, river,
--              water; lines: river, stream, canal, ditch, drain
--   landuse    park, garden, forest, wood, grass, meadow, scrub, cemetery, hospital, school,
--              university, college, industrial, commercial, retail, residential, railway,
--              pedestrian, playground, pitch, sports_centre, beach, zoo, military, farmland, allotments, parking
--   buildings  building (height, min_height in metres)
--   roads      highway, major_road, minor_road, path, rail (kind_detail: the highway or
--              railway value; is_link, is_bridge, is_tunnel; name, ref)
--   places     locality (city, town, village, hamlet), neighbourhood (suburb, quarter,
--              neighbourhood); population
--   pois       the amenity/shop/tourism/leisure/historic value
--   earth      earth: the land, from the `earth` shapefile layer (the extract's box less the sea)
-- Every feature with a name carries `name` and, where tagged, `name:en`, `name:fi`, `name:sv`.
-- Not written: `boundaries`, `transit`, `landcover` (low-zoom rasters).

node_keys = { "place", "amenity", "shop", "tourism", "leisure", "historic" }

function Set(list)
	local set = {}
	for _, value in ipairs(list) do set[value] = true end
	return set
end

function init_function() end
function exit_function() end

-- The shapefile layers, built from the coastline by Scripts/make_helsinki_sea.py:
-- `ocean` (featurecla Ocean) is written to `water` as kind ocean, `earth`
-- (featurecla Land) is the land, kind earth.
function attribute_function(attributes, layer)
	if attributes["featurecla"] == "Land" then return { kind = "earth" } end
	return { kind = "ocean" }
end

local languages = { "en", "fi", "sv" }

function SetNames(obj)
	local name = obj:Find("name")
	if name == "" then return false end
	obj:Attribute("name", name)
	for _, language in ipairs(languages) do
		local value = obj:Find("name:" .. language)
		if value ~= "" then obj:Attribute("name:" .. language, value) end
	end
	return true
end

local placeKinds = {
	city = { "locality", 4 }, town = { "locality", 8 }, village = { "locality", 10 }, hamlet = { "locality", 12 },
	suburb = { "neighbourhood", 11 }, quarter = { "neighbourhood", 12 }, neighbourhood = { "neighbourhood", 13 },
}
local poiKeys = { "amenity", "shop", "tourism", "leisure", "historic" }

function node_function(node)
	local place = node:Find("place")
	local placeKind = placeKinds[place]
	if placeKind then
		node:Layer("places", false)
		node:Attribute("kind", placeKind[1])
		node:Attribute("kind_detail", place)
		node:AttributeNumeric("min_zoom", placeKind[2])
		node:MinZoom(placeKind[2])
		local population = tonumber(node:Find("population"))
		if population then node:AttributeNumeric("population", population) end
		SetNames(node)
		return
	end
	WritePOI(node, false)
end

function WritePOI(obj, isArea)
	for _, key in ipairs(poiKeys) do
		local value = obj:Find(key)
		if value ~= "" and obj:Find("name") ~= "" then
			if isArea then obj:LayerAsCentroid("pois") else obj:Layer("pois", false) end
			obj:Attribute("kind", value)
			obj:AttributeNumeric("min_zoom", 15)
			SetNames(obj)
			return true
		end
	end
	return false
end

local majorRoads = Set { "trunk", "trunk_link", "primary", "primary_link", "secondary", "secondary_link" }
local minorRoads = Set { "tertiary", "tertiary_link", "residential", "unclassified", "service", "living_street",
	"pedestrian", "track", "road", "busway" }
local paths = Set { "footway", "path", "cycleway", "steps", "bridleway", "corridor" }
local rails = Set { "rail", "subway", "tram", "light_rail", "narrow_gauge", "monorail", "funicular" }
local roadZooms = { highway = 3, major_road = 7, minor_road = 12, path = 13, rail = 11 }

local landuseKinds = {
	leisure = Set { "park", "garden", "playground", "pitch", "sports_centre", "nature_reserve", "dog_park" },
	landuse = Set { "forest", "grass", "meadow", "cemetery", "industrial", "commercial", "retail", "residential",
		"railway", "military", "farmland", "allotments", "recreation_ground", "village_green" },
	natural = Set { "wood", "scrub", "beach", "heath", "grassland" },
	amenity = Set { "hospital", "school", "university", "college", "kindergarten", "parking", "grave_yard" },
	tourism = Set { "zoo" },
}
local waterLines = Set { "river", "stream", "canal", "ditch", "drain" }

function way_function(way)
	local isClosed = way:IsClosed()
	local highway, railway = way:Find("highway"), way:Find("railway")
	local building = way:Find("building")

	-- water
	local natural, waterway, landuse = way:Find("natural"), way:Find("waterway"), way:Find("landuse")
	if isClosed and (natural == "water" or natural == "bay" or waterway == "riverbank" or landuse == "reservoir" or landuse == "basin") then
		local kind = "water"
		local water = way:Find("water")
		if natural == "bay" then kind = "ocean"
		elseif water == "river" or waterway == "riverbank" then kind = "river"
		elseif water == "" or water == "lake" or water == "pond" then kind = "lake" end
		way:Layer("water", true)
		way:Attribute("kind", kind)
		if water ~= "" then way:Attribute("kind_detail", water) end
		SetNames(way)
		return
	end
	if waterLines[waterway] and not isClosed then
		way:Layer("water", false)
		way:Attribute("kind", waterway)
		SetNames(way)
		return
	end

	-- buildings
	if building ~= "" and building ~= "no" and isClosed then
		way:Layer("buildings", true)
		way:Attribute("kind", "building")
		local height = tonumber(way:Find("height"))
		local levels = tonumber(way:Find("building:levels"))
		if not height and levels then height = levels * 3 end
		if height then way:AttributeNumeric("height", height) end
		local minHeight = tonumber(way:Find("min_height"))
		if minHeight then way:AttributeNumeric("min_height", minHeight) end
		return
	end

	-- roads and railways
	local kind, detail = nil, highway
	local base = string.gsub(highway, "_link$", "")
	if highway == "motorway" or highway == "motorway_link" then kind = "highway"
	elseif majorRoads[highway] then kind = "major_road"
	elseif minorRoads[highway] and not (highway == "pedestrian" and isClosed and way:Find("area") == "yes") then kind = "minor_road"
	elseif paths[highway] then kind = "path"
	elseif rails[railway] then kind, detail, base = "rail", railway, railway end
	if kind then
		way:Layer("roads", false)
		way:Attribute("kind", kind)
		way:Attribute("kind_detail", base)
		if base ~= detail then way:AttributeBoolean("is_link", true) end
		local bridge, tunnel = way:Find("bridge"), way:Find("tunnel")
		if bridge ~= "" and bridge ~= "no" then way:AttributeBoolean("is_bridge", true) end
		if tunnel ~= "" and tunnel ~= "no" then way:AttributeBoolean("is_tunnel", true) end
		local ref = way:Find("ref")
		if ref ~= "" then way:Attribute("ref", ref) end
		way:AttributeNumeric("min_zoom", roadZooms[kind])
		way:MinZoom(roadZooms[kind])
		SetNames(way)
		return
	end

	-- landuse
	if isClosed then
		for key, kinds in pairs(landuseKinds) do
			local value = way:Find(key)
			if kinds[value] then
				way:Layer("landuse", true)
				way:Attribute("kind", value)
				SetNames(way)
				if key ~= "landuse" and key ~= "natural" then WritePOI(way, true) end
				return
			end
		end
		if highway == "pedestrian" then
			way:Layer("landuse", true)
			way:Attribute("kind", "pedestrian")
			return
		end
		WritePOI(way, true)
	end
end
